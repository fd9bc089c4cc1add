"""Build hook: `app.yml` at the top of the repository is the one GitHub App manifest.

A built wheel carries a copy of it inside the package (`bot/server/app.yml`), so an installed
`lockin serve` finds it; a source checkout reads the top-level file itself. Everything else
about the build is declared in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

MANIFEST = Path(__file__).resolve().parent / "app.yml"


class BuildWithManifest(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "bot" / "server" / "app.yml"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(MANIFEST, target)


setup(cmdclass={"build_py": BuildWithManifest})

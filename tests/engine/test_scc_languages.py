"""The file names and extensions scc counts that lockin once left uncounted (issue 27, lane
h55-scc-langs): each is counted now, its code lines as scc's (4.1.0) for the same text.

scc is not installed where the tests run: its counts are written down, from `scc --by-file
--format json` on each snippet saved under its path.
"""

from __future__ import annotations

import pytest

from bot.engine import classify
from bot.engine.languages import by_path


@pytest.mark.parametrize(
    ("path", "source", "language", "code"),
    [
        # scc: BASH, Zsh, C Shell, Korn Shell and Shell (.tcshrc); Shell here but for csh and ksh.
        (
            "home/.bashrc",
            "# shells\nexport CUDA_HOME=/usr/local/cuda\n\nalias ll='ls -l'  # l\n",
            "Shell",
            2,
        ),
        ("home/.bash_profile", "[ -f ~/.bashrc ] && . ~/.bashrc\n# done\n", "Shell", 1),
        ("home/.zshrc", '# zsh\nsetopt autocd\nexport PATH="$HOME/bin:$PATH"\n', "Shell", 2),
        ("home/.tcshrc", "# tcsh\nset prompt='%~ %# '\n", "Shell", 1),
        ("home/.cshrc", "# csh\nsetenv PATH /opt/bin:$PATH\n", "C Shell", 1),
        ("home/.kshrc", "# ksh\nset -o vi\n", "Korn Shell", 1),
        (
            "ci/gpu.jenkinsfile",
            "pipeline {\n  agent { label 'gpu' }\n\n"
            "  stages { stage('t') { steps { sh 'make test' } } }\n}\n",
            "Jenkins Buildfile",
            4,
        ),
        (
            "tools/release.justfile",
            "# release tasks\nbuild:\n    cargo build --release\n",
            "Just",
            2,
        ),
        (
            "deploy/worker.service",
            "# a worker\n[Unit]\nDescription=worker\n\n[Service]\nExecStart=/usr/bin/worker\n",
            "Systemd",
            4,
        ),
        ("deploy/nightly.timer", "[Timer]\n# every night\nOnCalendar=daily\n", "Systemd", 2),
        # scc: Makefile (`#` comments only: the `//` line is code there too).
        (
            "vendor/gpu/Android.bp",
            '// GPU HAL\ncc_library {\n    name: "libgpu",\n    # odd\n    srcs: ["gpu.cpp"],\n}\n',
            "Makefile",
            5,
        ),
        ("db/query.pgc", "/* ECPG */\n#include <stdio.h>\nint main(void) { return 0; }\n", "C", 2),
        ("db/schema.ddl", "-- tables\nCREATE TABLE t (id int);\n/* done */\n", "SQL", 1),
        (
            "legacy/Module1.bas",
            '\' a module\nAttribute VB_Name = "Module1"\nSub Main()\nEnd Sub\n',
            "Basic",
            3,
        ),
        (
            "src/Main.as",
            "// AS3\npackage {\n  /* a class */\n  public class Main {}\n}\n",
            "ActionScript",
            3,
        ),
        (
            "meta-gpu/recipes-core/gpu-driver_1.0.bb",
            '# recipe\nSUMMARY = "GPU driver"\nLICENSE = "MIT"\n',
            "Bitbake",
            2,
        ),
        ("templates/page.gtpl", "// template\nhello ${name}\n", "Groovy", 1),
        ("legacy/kernel.pad", "-- Ada\nprocedure P is begin null; end P;\n", "Ada", 1),
    ],
)
def test_a_file_scc_counts_is_counted_as_scc_counts_it(
    path: str, source: str, language: str, code: int
) -> None:
    report = classify(path, source.encode())
    assert (report.language, report.code_lines) == (language, code)


@pytest.mark.parametrize(
    ("path", "source", "language", "lines"),
    [
        # Data, counted apart from code: scc's Docker ignore; its MSBuild for .resx (XML here).
        ("app/.dockerignore", "# build context\n.git\n\n**/__pycache__\n", "Docker ignore", 2),
        (
            "ui/Form1.resx",
            '<?xml version="1.0"?>\n<!-- resources -->\n<root>\n'
            '  <data name="a"><value>1</value></data>\n</root>\n',
            "XML",
            4,
        ),
        ("templates/page.gotxt", "{{/* greeting */}}\nHello {{.Name}}\n", "Go Template", 1),
    ],
)
def test_a_data_file_scc_counts_is_counted_apart_from_code(
    path: str, source: str, language: str, lines: int
) -> None:
    report = classify(path, source.encode())
    assert (report.language, report.code_lines, report.text_lines) == (language, 0, lines)


def test_a_jenkinsfile_comment_is_a_comment() -> None:
    # scc counts every non-blank line of a Jenkinsfile as code (4 here); a commented-out
    # stage is no step, and no rule reads it. A // inside a URL masks the rest of its line.
    source = "// nightly\npipeline {\n  // sh 'nvidia-smi'\n  agent any\n}\n"
    report = classify("Jenkinsfile", source.encode())
    assert (report.language, report.code_lines, report.findings) == ("Jenkins Buildfile", 3, [])


def test_an_scons_docstring_is_a_comment_as_in_any_python_file() -> None:
    # scc's Scons counts the docstring's two lines as code; as Python here they are not.
    source = (
        "# SCons\nImport('env')\n\"\"\"a docstring\nover lines\"\"\"\nenv.Program('app', ['a.c'])\n"
    )
    report = classify("site_scons/lib.sconscript", source.encode())
    assert (report.language, report.code_lines) == ("Python", 2)


# The names and extensions `scc --languages` (4.1.0; languages.json at boyter/scc d8eda2b)
# listed that lockin's by_path left uncounted before lane h55-scc-langs, and the language each
# is counted as now. The names without a dot (Jenkinsfile, justfile, PKGBUILD, SConstruct),
# which scc never counts (no extension, no #! line), are counted here as the build files they are.
HANDLED = {
    "Shell": [
        ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".zshrc", ".zshenv",
        ".zprofile", ".zlogin", ".zlogout", ".tcshrc", "a.bashrc", "a.bash_profile",
        "a.bash_login", "a.bash_logout", "a.zshrc", "a.zshenv", "a.zprofile", "a.zlogin",
        "a.zlogout", "a.pkgbuild", "PKGBUILD",
    ],
    "C Shell": [".cshrc"],
    "Korn Shell": [".kshrc"],
    "Python": ["a.sconstruct", "a.sconscript", "SConstruct", "SConscript"],
    "Starlark": ["build.bazel", "a.build.bazel"],
    "Meson": ["a.meson.build"],
    "Makefile": ["gnumakefile", "Android.bp", "a.bp"],
    "C": ["a.ec", "a.pgc"],
    "C++": ["a.pcc"],
    "Groovy": ["a.grt", "a.gtpl"],
    "Jenkins Buildfile": ["a.jenkinsfile", "Jenkinsfile"],
    "Just": ["a.justfile", "justfile", "Justfile", ".justfile"],
    "Systemd": [
        "a.automount", "a.mount", "a.scope", "a.service", "a.slice", "a.socket", "a.swap",
        "a.timer",
    ],
    "Docker ignore": [".dockerignore"],
    "Ruby": ["gemfile", "rakefile", "a.rake"],
    "Snakemake": ["snakefile"],
    "SQL": ["a.ddl", "a.dml", "a.dql"],
    "Ada": ["a.pad"],
    "MSBuild": ["a.ilproj", "a.myapp"],
    "XML": ["a.resx", "a.rdlc"],
    "Go Template": ["a.gotxt"],
    "Jupyter": ["a.jpynb"],
    "Basic": ["a.bas"],
    "ActionScript": ["a.as"],
    "Bitbake": ["a.bb"],
    "License": [
        "copying3", "copyright", "unlicense", "unlicence", "UNLICENCE", "license-apache",
        "licence-apache", "LICENCE-APACHE", "license-mit", "licence-mit", "LICENCE-MIT",
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    ("name", "language"), [(n, lang) for lang, names in HANDLED.items() for n in names]
)
def test_a_name_scc_counts_has_a_language(name: str, language: str) -> None:
    found, _ = by_path(f"some/dir/{name}")
    assert found is not None
    assert found.name == language


# Left uncounted on purpose: an extension two unrelated languages share (scc names one of
# them), or a systemd unit type whose extension other tools use for other things.
@pytest.mark.parametrize(
    "name",
    ["a.i", "a.v", "a.pro", "a.pp", "a.device", "a.link", "a.path", "a.target", ".gitignore"],
)
def test_a_name_scc_counts_but_trees_use_two_ways_stays_uncounted(name: str) -> None:
    assert by_path(f"some/dir/{name}")[0] is None

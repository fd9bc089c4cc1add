"""Framework detection: imports and dependency files name the frameworks a repository uses."""

from __future__ import annotations

from bot.engine.frameworks import detect, frameworks, wanted


def test_imports_and_dependency_files_name_frameworks() -> None:
    files = [
        ("model/train.py", b"import os\nfrom torch import nn\n"),
        ("serve/infer.py", b"  import onnxruntime as ort\n"),
        ("requirements.txt", b"# pinned\njax[cuda12]==0.4.30\nnumpy\n"),
        (
            "pyproject.toml",
            b'dependencies = ["tensorflow_cpu>=2.15", "mlx; sys_platform == \'darwin\'"]\n',
        ),
        ("docs/notes.md", b"import torch\n"),  # prose: not read
        ("tools/x.py", b"s = 'import jaxtyping'\nimport torchvision\n"),  # other packages
    ]
    found = detect(files)
    assert found == {
        "pytorch": ["model/train.py"],
        "onnxruntime": ["serve/infer.py"],
        "jax": ["requirements.txt"],
        "tensorflow": ["pyproject.toml"],
        "mlx": ["pyproject.toml"],
    }


def test_only_python_and_dependency_files_are_read() -> None:
    assert [wanted(p) for p in ("a/b.py", "requirements-dev.txt", "environment.yml")] == [
        True,
        True,
        True,
    ]
    assert [wanted(p) for p in ("README.md", "k.cu")] == [False, False]


def test_every_framework_row_names_imports_and_packages() -> None:
    names = [f.name for f in frameworks()]
    assert {"pytorch", "jax", "tensorflow", "onnxruntime", "mlx"} <= set(names)
    assert all(f.imports and f.packages for f in frameworks())

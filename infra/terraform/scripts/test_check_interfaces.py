"""Tests of check_interfaces.py on small configurations written to a temporary directory."""
from pathlib import Path

from check_interfaces import load, problems

CHILD = """
variable "name" {
  type = string
}

variable "size" {
  type    = number
  default = 1
}

output "id" {
  value = var.name
}
"""


def write(directory: Path, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "main.tf").write_text(text)
    return directory


def test_a_correct_call_passes(tmp_path):
    write(tmp_path / "child", CHILD)
    root = write(tmp_path / "root", 'module "c" {\n  source = "../child"\n  name = "x"\n}\n\noutput "o" {\n  value = module.c.id\n}\n')
    assert problems(load(root)) == []


def test_unknown_argument_and_missing_required_variable(tmp_path):
    write(tmp_path / "child", CHILD)
    root = write(tmp_path / "root", 'module "c" {\n  source = "../child"\n  nam = "x"\n}\n')
    assert problems(load(root)) == [
        'module "c" passes nam, which ../child does not declare',
        'module "c" does not pass required variable name of ../child',
    ]


def test_undeclared_references(tmp_path):
    write(tmp_path / "child", CHILD)
    root = write(
        tmp_path / "root",
        'module "c" {\n  source = "../child"\n  name = var.missing\n}\n\n'
        'output "o" {\n  value = "${module.c.arn}-${module.d.id}-${local.nope}"\n}\n',
    )
    assert problems(load(root)) == [
        "var.missing is referenced but not declared",
        "local.nope is referenced but not declared",
        "module.c.arn: ../child has no output arn",
        "module.d.id: there is no module call d",
    ]


def test_comments_are_not_references(tmp_path):
    root = write(tmp_path / "root", '# var.documented_elsewhere is set by the caller\nlocals {\n  a = 1\n}\n')
    assert problems(load(root)) == []

"""Checks what `terraform validate` would check about module interfaces, without providers.

The AWS and random providers cannot be downloaded on the build machine, so
`terraform validate` cannot run there. This check parses every configuration
(python-hcl2) and fails on the mistakes that slip past `terraform fmt` and
tflint's language rules:

- a module call passing an argument its module does not declare as a variable,
  or leaving out a variable that has no default;
- a reference to an undeclared `var.*` or `local.*`, or to a `module.<call>.<output>`
  whose call or output does not exist.

Usage: python check_interfaces.py DIR...   (each DIR a module or environment)
Exit status 0 when every directory passes, 1 with one line per problem
(file-relative, "dir: problem") otherwise.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import hcl2

META_ARGUMENTS = {"source", "version", "providers", "depends_on", "count", "for_each"}
VAR_REF = re.compile(r"\bvar\.([A-Za-z_][\w-]*)")
LOCAL_REF = re.compile(r"\blocal\.([A-Za-z_][\w-]*)")
MODULE_REF = re.compile(r"\bmodule\.([A-Za-z_][\w-]*)\.([A-Za-z_][\w-]*)")


@dataclass
class Config:
    """The declarations of one directory of .tf files."""

    directory: Path
    variables: dict[str, bool] = field(default_factory=dict)  # name -> has a default
    outputs: set[str] = field(default_factory=set)
    locals: set[str] = field(default_factory=set)
    modules: dict[str, dict] = field(default_factory=dict)  # call name -> arguments
    code: str = ""  # every .tf file without comment lines, for reference scanning


def load(directory: Path) -> Config:
    config = Config(directory)
    for path in sorted(directory.glob("*.tf")):
        with path.open() as handle:
            parsed = hcl2.load(handle)
        for block in parsed.get("variable", []):
            for name, body in block.items():
                config.variables[name] = "default" in body
        for block in parsed.get("output", []):
            config.outputs.update(block)
        for block in parsed.get("locals", []):
            config.locals.update(block)
        for block in parsed.get("module", []):
            config.modules.update(block)
        lines = path.read_text().splitlines()
        config.code += "\n".join(line for line in lines if not line.lstrip().startswith("#")) + "\n"
    return config


def problems(config: Config) -> list[str]:
    found = []
    for name in sorted(set(VAR_REF.findall(config.code)) - set(config.variables)):
        found.append(f"var.{name} is referenced but not declared")
    for name in sorted(set(LOCAL_REF.findall(config.code)) - config.locals):
        found.append(f"local.{name} is referenced but not declared")
    callees = {}
    for call, arguments in config.modules.items():
        source = arguments.get("source", "")
        if not source.startswith("."):
            continue  # registry modules are checked by terraform init, not here
        callee = load((config.directory / source).resolve())
        callees[call] = callee
        passed = set(arguments) - META_ARGUMENTS
        for name in sorted(passed - set(callee.variables)):
            found.append(f'module "{call}" passes {name}, which {source} does not declare')
        required = {name for name, has_default in callee.variables.items() if not has_default}
        for name in sorted(required - passed):
            found.append(f'module "{call}" does not pass required variable {name} of {source}')
    for call, output in sorted(set(MODULE_REF.findall(config.code))):
        if call not in config.modules:
            found.append(f"module.{call}.{output}: there is no module call {call}")
        elif call in callees and output not in callees[call].outputs:
            found.append(f"module.{call}.{output}: {config.modules[call]['source']} has no output {output}")
    return found


def main(directories: list[str]) -> int:
    failed = False
    for directory in directories:
        for problem in problems(load(Path(directory))):
            print(f"{directory}: {problem}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

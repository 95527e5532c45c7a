#!/usr/bin/env bash
# What CI checks of infra/terraform (the providers cannot be downloaded here,
# so `terraform init` and `terraform validate` cannot run; see README.md):
#   1. terraform fmt -check: canonical formatting (Terraform 1.5.7, the last
#      release the Go module proxy can build: later ones use replace directives);
#   2. tflint with the bundled Terraform language rules (all of them): unused
#      declarations, typed and documented variables and outputs, naming,
#      pinned provider versions;
#   3. scripts/check_interfaces.py: module arguments against the callee's
#      variables, required variables passed, every var./local./module.<call>.<output>
#      reference declared; and its own unit tests.
# Tools are built once into $TIERWISE_TOOLS_DIR (Go module proxy, PyPI).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$here/../local/env.sh"

TERRAFORM_MODULE=github.com/hashicorp/terraform@v1.5.7
TFLINT_MODULE=github.com/terraform-linters/tflint@v0.64.0
PYTHON_HCL2=python-hcl2==7.3.1
PYTEST=pytest==8.4.2

go_bin="$TIERWISE_TOOLS_DIR/go-bin"
venv="$TIERWISE_TOOLS_DIR/terraform-check-venv"

# go_tool NAME MODULE@VERSION: builds the tool when missing or of another version.
go_tool() {
  local name=$1 module=$2 stamp="$go_bin/.$1.version"
  if [ ! -x "$go_bin/$name" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$module" ]; then
    echo "terraform check: building $module (Go module proxy; a few minutes the first time)"
    GOBIN="$go_bin" go install "$module"
    echo "$module" >"$stamp"
  fi
}

command -v go >/dev/null || { echo "terraform check: Go is not installed (needed to build terraform and tflint)" >&2; exit 1; }
mkdir -p "$go_bin"
go_tool terraform "$TERRAFORM_MODULE"
go_tool tflint "$TFLINT_MODULE"
if [ "$(cat "$venv/.requirements" 2>/dev/null)" != "$PYTHON_HCL2 $PYTEST" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "$PYTHON_HCL2" "$PYTEST"
  echo "$PYTHON_HCL2 $PYTEST" >"$venv/.requirements"
fi

cd "$here"
export TF_CLI_CONFIG_FILE=/dev/null TF_IN_AUTOMATION=1
echo "terraform check: terraform fmt -check"
"$go_bin/terraform" fmt -check -recursive -diff .
echo "terraform check: tflint (Terraform language rules)"
"$go_bin/tflint" --recursive --config "$here/.tflint.hcl" --format compact
echo "terraform check: module interfaces"
"$venv/bin/python" scripts/check_interfaces.py . modules/*
"$venv/bin/python" -m pytest -q -p no:cacheprovider scripts/test_check_interfaces.py
echo "terraform check: all passed"

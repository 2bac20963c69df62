"""The committed OpenAPI document: up to date, valid, with examples and error responses."""

from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

from service.openapi import render

ROOT = Path(__file__).resolve().parents[2]


def committed() -> dict:
    return yaml.safe_load((ROOT / "openapi.yaml").read_text())


def test_committed_openapi_matches_the_app():
    assert (ROOT / "openapi.yaml").read_text() == render(), (
        "openapi.yaml is stale: run `python -m service.openapi` and commit it"
    )


def test_openapi_document_validates():
    spec = committed()
    assert spec["openapi"] == "3.1.0"
    validate(spec)


def operations(spec: dict):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                yield f"{method.upper()} {path}", operation


def test_every_operation_has_a_success_example_and_documented_problems():
    spec = committed()
    for name, operation in operations(spec):
        responses = operation["responses"]
        success = [code for code in responses if code.startswith("2")]
        assert success, name
        for code in success:
            content = responses[code].get("content", {})
            if "application/json" in content:
                assert "example" in content["application/json"], f"{name} {code} has no example"
        problems = [code for code in responses if code[0] in "45" or code == "default"]
        assert problems, f"{name} documents no error response"
        for code in problems:
            content = responses[code].get("content", {})
            if "application/problem+json" in content:
                continue
            ref = responses[code].get("$ref", "")
            assert ref.startswith("#/components/responses/"), f"{name} {code}"
            target = spec["components"]["responses"][ref.rsplit("/", 1)[1]]
            assert "application/problem+json" in target["content"], f"{name} {code}"


def test_request_bodies_have_examples():
    spec = committed()
    for name, operation in operations(spec):
        body = operation.get("requestBody")
        if body:
            assert "example" in body["content"]["application/json"], name

"""The service's refusals (service.errors) and the one table that answers them over HTTP."""

from __future__ import annotations

import inspect

from service import errors
from service.problems import PROBLEM_OF, TITLES, problem_of


def refusals() -> list[type[errors.ServiceError]]:
    return [
        kind
        for _, kind in inspect.getmembers(errors, inspect.isclass)
        if issubclass(kind, errors.ServiceError) and kind is not errors.ServiceError
    ]


def test_every_refusal_has_a_status_and_a_titled_code():
    unmapped = [kind.__name__ for kind in refusals() if kind not in PROBLEM_OF]
    assert unmapped == []
    untitled = [code for _, code in PROBLEM_OF.values() if code not in TITLES]
    assert untitled == []


def test_a_refusal_keeps_its_detail_and_facts_in_the_problem():
    problem = problem_of(errors.VersionConflict("seat 1 decided", version=7, decision=5))
    assert (problem.status, problem.code, problem.detail) == (
        412,
        "version_mismatch",
        "seat 1 decided",
    )
    assert problem.body()["version"] == 7 and problem.body()["decision"] == 5
    assert problem.headers == {}


def test_contention_asks_to_retry_soon():
    problem = problem_of(errors.Contention(24, "too many writes"))
    assert (problem.status, problem.code) == (503, "contention")
    assert problem.headers == {"Retry-After": "1"}

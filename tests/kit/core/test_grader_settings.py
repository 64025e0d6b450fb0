"""The rubric's settings: one frozen object, validated once, every error naming the file, the
key and (for command-line options) where the value came from; limits and caps derived."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import UserError
from grader.grading.host import sandbox_limits
from grader.grading.intake import Caps
from grader.sandbox import Limits
from grader.settings import SETTINGS, Settings, read_settings


def test_defaults_are_declared_once() -> None:
    settings = read_settings(Path("r.toml"), {}, {})
    assert settings == Settings()
    assert {s.name: s.default for s in SETTINGS} == {
        s.name: getattr(settings, s.name) for s in SETTINGS}
    assert all(s.help for s in SETTINGS)
    with pytest.raises(AttributeError):
        settings.time_limit = 3  # frozen


@pytest.mark.parametrize("raw, overrides, message", [
    ({"time_limt": 3}, {}, "r.toml: settings.time_limt: unknown setting; known: "),
    ({"memory_mb": 0}, {}, "r.toml: settings.memory_mb: must be at least 1, got 0"),
    ({"memory_mb": 1.5}, {}, "r.toml: settings.memory_mb: expected an integer, got 1.5"),
    ({"time_limit": 0}, {}, "r.toml: settings.time_limit: must be positive, got 0"),
    ({}, {"time_limit": -1.0},
     "r.toml: settings.time_limit (from the command line): must be positive, got -1.0"),
    ({"partial_credit": 1.5}, {}, "r.toml: settings.partial_credit: must be at most 1.0"),
    ({"cost_tolerance": float("nan")}, {}, "settings.cost_tolerance: expected a number"),
    ({"time_limit": True}, {}, "settings.time_limit: expected a number, got True"),
    ({"allowed_packages": ["numpy", "os.path"]}, {}, "settings.allowed_packages: expected a"),
    ({"run_as": "bad user"}, {}, "settings.run_as: expected a user name"),
    ({"student_id_pattern": "(?P<sid>x)"}, {}, "needs a named group (?P<id>...)"),
    ({"student_id_pattern": "("}, {}, "settings.student_id_pattern: not a regular expression"),
    ({"cases_dir": ""}, {}, "settings.cases_dir: expected a non-empty string"),
])
def test_errors_name_the_key_and_the_source(raw, overrides, message) -> None:
    with pytest.raises(UserError) as e:
        read_settings(Path("r.toml"), raw, overrides)
    assert message in str(e.value)


def test_overrides_win_and_none_means_not_given() -> None:
    settings = read_settings(Path("r.toml"), {"time_limit": 5, "run_as": "none"},
                             {"time_limit": 7.5, "run_as": None})
    assert (settings.time_limit, settings.run_as) == (7.5, "none")
    assert isinstance(settings.time_limit, float)
    packages = read_settings(Path("r.toml"), {"allowed_packages": ["scipy", "numpy", "numpy"]}, {})
    assert packages.allowed_packages == ("numpy", "scipy")


def test_limits_and_caps_are_derived() -> None:
    settings = read_settings(Path("r.toml"), {"memory_mb": 512, "output_kb": 4,
                                              "max_archive_mb": 2, "max_archive_files": 10}, {})
    assert sandbox_limits(settings) == Limits(memory_mb=512, file_size_mb=64, processes=64,
                                           open_files=256, output_kb=4, disk_mb=1024)
    assert settings.caps() == Caps(max_bytes=2 * 2**20, max_files=10, max_entries=500)
    assert Caps().times(3) == Caps(3 * 50 * 2**20, 1500, 3 * 25000)

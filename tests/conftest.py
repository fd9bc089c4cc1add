"""Fixtures shared by every test: a running fake GitHub on loopback. Markers by place."""

from collections.abc import AsyncIterator

import pytest
from hypothesis import HealthCheck, settings

from tests.fakegithub import FakeGitHub

# Hypothesis fails an example that takes longer than 200 ms of wall time, and a run whose
# examples are slow to generate: a wall-clock margin that a loaded 2-core CI machine breaks
# (a keyword-index property failed so with seven other processes on the machine). What the
# properties assert does not depend on time; the engine's own budgets are CPU time.
settings.register_profile("lockin", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("lockin")


@pytest.fixture
async def fake_github() -> AsyncIterator[FakeGitHub]:
    """A started fake GitHub; point the bot's GITHUB_API_URL at `fake_github.url`."""
    async with FakeGitHub() as fake:
        yield fake


#: Marks by place (`make test-fast` leaves them out), matched against the start of a test's
#: node id: `scale` starts redis-server and `lockin worker` processes, `browser` headless
#: Chromium, `slow` is whatever takes about a second or more (0.85 s) of a quiet 2-core
#: machine (gzip bombs, 3,000-file pull requests, fresh interpreters, real processes,
#: rate-limit waits).
#: `pytest --durations=60 -m "not slow and not scale and not browser"` shows the next ones;
#: packaging and the pre-commit hook mark themselves.
_MARKS_BY_PLACE = {
    "tests/scale/": "scale",
    "tests/deploy/test_setup_page_browser.py": "browser",
    "tests/layout/test_imports.py": "slow",
    "tests/sources/test_pool.py": "slow",
    "tests/review/test_engine_budget.py": "slow",
    "tests/review/test_job_timeout.py": "slow",
    "tests/review/test_pr_archive.py": "slow",
    "tests/review/test_hostile_archives.py": "slow",
    "tests/recount/test_tarball.py::test_a_gzip_bomb": "slow",
    "tests/recount/test_tarball.py::test_a_census_whose_event_loop_stops": "slow",
    "tests/recount/test_recount.py::test_a_gzip_bomb": "slow",
    "tests/review/test_pr_check.py::test_pr_of_3000_files": "slow",
    "tests/review/test_check_on_failure.py::test_an_outage_of_each_kind": "slow",
    "tests/review/test_never_missing.py::test_a_retry_is_dropped": "slow",
    "tests/review/test_github_listings.py::test_a_file_over_the_size_limit": "slow",
    "tests/server/test_github_client.py::test_primary_limit_waits": "slow",
    "tests/server/test_github_client.py::test_secondary_limit_is_waited_out": "slow",
    "tests/server/test_github_client.py::test_token_refreshed_once": "slow",
    "tests/server/test_github_client.py::test_writes_of_one_installation": "slow",
    "tests/server/test_serve_process.py": "slow",
    "tests/server/test_unverified_bodies.py::test_stalled_uploads": "slow",
    "tests/server/test_admission.py": "slow",
    "tests/deploy/test_manifest_flow.py::test_lockin_serve_prints": "slow",
    "tests/review/test_open_runs.py::test_a_run_whose_completion_github_refused": "slow",
    "tests/review/test_open_runs.py::test_a_run_on_a_replaced_head_is_cancelled": "slow",
    "tests/review/test_open_runs.py::test_a_merge_groups_run_left_in_progress": "slow",
    "tests/review/test_open_runs.py::test_a_run_on_a_merge_group_the_queue": "slow",
    "tests/action/test_action.py::test_config_input_is_read_at_the_base": "slow",
    "tests/action/test_action.py::test_decision_linked_from": "slow",
    "tests/cli/test_cli.py::test_a_file_name_that_is_not_utf8": "slow",
    "tests/cli/test_history.py::test_the_plot_is_written": "slow",
    "tests/policy/test_policy_robustness.py::test_load_policy_returns": "slow",
    "tests/policy/test_policy_robustness.py::test_links_and_refs_never_raise": "slow",
    "tests/action/test_action.py::test_shallow_checkout_is_deepened": "slow",
    "tests/action/test_action.py::test_working_directory_input": "slow",
    "tests/action/test_action.py::test_unsupported_event_and_bad_inputs": "slow",
    "tests/action/test_action.py::test_kernel_without_a_decision_fails": "slow",
    "tests/dashboard/test_dashboard.py::test_created_once_then_edited": "slow",
    "tests/test_fakegithub.py::test_pr_files_paginate_with_link_headers": "slow",
    "tests/cli/test_cli.py::test_real_entry_point_exit_codes": "slow",
    "tests/cli/test_census.py::test_replace_equals_a_fresh_census": "slow",
    "tests/orgs/test_org_pages.py::test_the_organisation_page_shows_every": "slow",
    "tests/engine/test_robustness.py::test_comments_and_blank_lines_never": "slow",
    "tests/engine/test_robustness.py::test_long_macro_with_many_matches": "slow",
    "tests/engine/test_robustness.py::test_adversarial_input_completes[min.py": "slow",
    "tests/deploy/test_manifest_flow.py::test_callback_exchanges_the_code": "slow",
    "tests/recount/test_recount.py::test_twenty_commands_in_a_minute": "slow",
    "tests/store/test_store.py::test_postgresql_connections": "slow",
    "tests/policy/test_policy_robustness.py::test_parse_decision_returns": "slow",
}
#: The PostgreSQL variant of a store test starts a throwaway cluster (initdb, pg_ctl: seconds
#: per test process); its SQLite twin runs the same code in `make test-fast`.
_SLOW_VARIANTS = ("[postgresql",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for prefix, mark in _MARKS_BY_PLACE.items():
            if item.nodeid.startswith(prefix):
                item.add_marker(mark)
        if any(variant in item.nodeid for variant in _SLOW_VARIANTS):
            item.add_marker("slow")

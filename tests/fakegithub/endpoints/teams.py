"""Users and organisations' teams: whether an account exists, a team's members, and one
user's membership of a team (what the approval of decision records asks)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from .common import Call, handles, not_found, reply

if TYPE_CHECKING:
    from ..server import FakeGitHub
    from ..state import Team


def _team(fake: FakeGitHub, call: Call) -> Team | None:
    return fake.teams.get(f"{call.params['org']}/{call.params['team_slug']}".lower())


@handles("users/get-by-username")
async def get_user(fake: FakeGitHub, call: Call) -> web.Response:
    login = call.params["username"]
    if not fake.account_exists(login):
        return not_found()
    return reply(fake.shapes.public_user(login))


@handles("teams/list-members-in-org")
async def list_members(fake: FakeGitHub, call: Call) -> web.Response:
    team = _team(fake, call)
    if team is None:
        return not_found()
    active = sorted(login for login, state in team.members.items() if state == "active")
    page, links = call.page(active)
    return reply([fake.shapes.user(login) for login in page], headers=links)


@handles("teams/get-membership-for-user-in-org")
async def get_membership(fake: FakeGitHub, call: Call) -> web.Response:
    team = _team(fake, call)
    login = next(
        (m for m in (team.members if team else {}) if m.lower() == call.params["username"].lower()),
        None,
    )
    if team is None or login is None:
        return not_found()  # GitHub: not a member, or no such team
    return reply(fake.shapes.team_membership(team, login))

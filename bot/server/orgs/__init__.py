"""The organisation pages: every repository a signed-in user can read, its lock-in, trend,
owners and cost of moving (``/orgs/{org}``, ``/orgs/{org}/{repo}``, CSV and JSON exports)."""

from bot.server.orgs.routes import add_org_routes

__all__ = ["add_org_routes"]

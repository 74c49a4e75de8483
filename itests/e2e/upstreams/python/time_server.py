"""A small MCP server on the official Python SDK (mcp 2.x), run by Quiver's end-to-end tests as a stdio upstream.

convert_time answers with structured content (its return type is a pydantic model); count reports progress
after each step and, when the caller cancels it, leaves a line in the file named by $WITNESS.
"""
import asyncio
import os
from datetime import datetime
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("python-time")


class Converted(BaseModel):
    source: str
    target: str
    difference_hours: float


@server.tool(description="Converts a wall-clock time (HH:MM) on a date between two IANA time zones.")
def convert_time(source_timezone: str, time: str, target_timezone: str, date: str = "2026-06-01") -> Converted:
    hour, minute = (int(part) for part in time.split(":"))
    year, month, day = (int(part) for part in date.split("-"))
    source = datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(source_timezone))
    target = source.astimezone(ZoneInfo(target_timezone))
    hours = (target.utcoffset() - source.utcoffset()).total_seconds() / 3600
    return Converted(source=source.isoformat(), target=target.isoformat(), difference_hours=hours)


@server.tool(description="Counts to steps, one step every ms milliseconds, reporting progress after each.")
async def count(steps: int, ms: int, label: str, ctx: Context) -> str:
    try:
        for step in range(1, steps + 1):
            await asyncio.sleep(ms / 1000)
            await ctx.report_progress(step, steps, f"step {step}")
    except asyncio.CancelledError:
        witness = os.environ.get("WITNESS")
        if witness:
            with open(witness, "a", encoding="utf-8") as out:
                out.write(f"cancelled {label}\n")
        raise
    return f"counted to {steps}"


if __name__ == "__main__":
    server.run()

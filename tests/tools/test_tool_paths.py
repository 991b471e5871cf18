"""The two ways to call a tool (autogen function calling, ReAct text) and what gets recorded."""

from __future__ import annotations

import asyncio
from pathlib import Path

from autogen_core import CancellationToken
from autogen_core.tools import StaticWorkbench, Tool

from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.protocol import ToolCallRecord
from macrs_sim.tools.base import ToolReply
from macrs_sim.tools.hard import HardFilterTool
from macrs_sim.tools.info import ItemInfoTool
from macrs_sim.tools.items import ItemResolver
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.sql import SqlQueryTool
from macrs_sim.tools.toolbox import Toolbox, parse_action


def test_schema_for_function_calling(film_db: Path) -> None:
    tool = HardFilterTool(film_db)
    assert isinstance(tool, Tool)
    schema = tool.schema
    assert schema["name"] == "filter_items"
    params = schema["parameters"]
    assert params["required"] == []
    assert params["properties"]["genres"]["type"] == "array"
    assert params["properties"]["order_by"]["enum"] == ["popularity", "year", "title"]
    assert SqlQueryTool(film_db).schema["parameters"]["required"] == ["sql"]


async def test_run_json_returns_a_reply_and_its_string(film_db: Path) -> None:
    tool = SqlQueryTool(film_db)
    value = await tool.run_json({"sql": "SELECT COUNT(*) AS n FROM items"}, CancellationToken())
    assert isinstance(value, ToolReply)
    assert value.data is not None and value.data.rows == ((8,),)
    assert tool.return_value_as_string(value) == "n\n8"


async def test_run_json_with_bad_arguments_is_an_error_text(film_db: Path) -> None:
    tool = HardFilterTool(film_db)
    value = await tool.run_json({"year_min": "nineteen", "limit": 0}, CancellationToken())
    assert tool.return_value_as_string(value) == (
        "Error: invalid arguments: year_min: Input should be a valid integer, unable to parse "
        "string as an integer; limit: Input should be greater than or equal to 1"
    )


async def test_text_path_plain_json_and_quoted(film_db: Path) -> None:
    tool = SqlQueryTool(film_db)
    sql = "SELECT title FROM items WHERE item_id = '6'"
    expected = "title\nHaunted Manor"
    assert await tool.run_text(sql) == expected
    assert await tool.run_text(f'"{sql}"') == expected
    assert await tool.run_text('{"sql": "' + sql + '"}') == expected
    assert await tool.run_text("{not json") == (
        "Error: input is not valid JSON (Expecting property name enclosed in double quotes "
        "at char 1)"
    )


def test_parse_action() -> None:
    assert parse_action("sql_query[SELECT 1]") == ("sql_query", "SELECT 1")
    assert parse_action('  item_info[ {"items": ["Heat"]} ]\n') == (
        "item_info",
        '{"items": ["Heat"]}',
    )
    assert parse_action('{"tool": "item_info", "args": {"items": ["3"]}}') == (
        "item_info",
        {"items": ["3"]},
    )
    assert parse_action("I think I should search") is None


async def test_records_are_attributed_and_errors_recorded(
    film_db: Path, films: Catalog, popularity: dict[str, int], in_dialogue: CallContext
) -> None:
    log = ToolCallLog()
    box = Toolbox(
        [SqlQueryTool(film_db, log=log), ItemInfoTool(ItemResolver(films), popularity, log=log)],
        log=log,
    )
    ok = await box.run_action("sql_query[SELECT COUNT(*) FROM items]")
    bad = await box.run_action("sql_query[DELETE FROM items]")
    missing = await box.run_action("recommend[anything]")
    garbled = await box.run_action('item_info[{"items": []}]')
    records = log.pop("d1")
    assert [r.tool for r in records] == ["sql_query", "sql_query", "recommend", "item_info"]
    assert all(
        (r.dialogue_id, r.system, r.role, r.turn) == ("d1", "interecagent", "recommender", 2)
        for r in records
    )
    first = records[0]
    assert first.input == {"sql": "SELECT COUNT(*) FROM items"}
    assert first.ok and first.error is None and first.output_chars == len(ok) == len("COUNT(*)\n8")
    assert first.latency_s > 0
    assert not records[1].ok and records[1].output_chars == len(bad)
    assert records[1].error is not None and records[1].error.startswith("refused: only SELECT")
    assert missing == "Error: unknown tool 'recommend'; tools: sql_query, item_info"
    assert records[2].input == {"text": "recommend[anything]"} and not records[2].ok
    assert records[3].input == {"text": '{"items": []}'}
    assert garbled.startswith("Error: invalid arguments: items: List should have at least 1 item")
    assert log.pending() == 0


async def test_concurrent_dialogues_keep_their_own_records(film_db: Path) -> None:
    log = ToolCallLog()
    tool = SqlQueryTool(film_db, log=log)

    async def dialogue(name: str, turns: int) -> None:
        for turn in range(1, turns + 1):
            with calling(
                CallContext(role="planner", dialogue_id=name, system="recmind", turn=turn)
            ):
                await tool.run_text(f"SELECT '{name}', {turn}")

    await asyncio.gather(dialogue("a", 3), dialogue("b", 2))
    assert [(r.turn, r.input["sql"]) for r in log.pop("b")] == [
        (1, "SELECT 'b', 1"),
        (2, "SELECT 'b', 2"),
    ]
    assert [r.turn for r in log.pop("a")] == [1, 2, 3]


async def test_outside_any_dialogue_the_role_is_unknown(film_db: Path) -> None:
    log = ToolCallLog()
    await SqlQueryTool(film_db, log=log).run_text("SELECT 1")
    (rec,) = log.pop(None)
    assert isinstance(rec, ToolCallRecord)
    assert (rec.role, rec.dialogue_id, rec.system, rec.turn) == ("unknown", None, None, None)


def test_describe_for_a_react_prompt(film_db: Path, films: Catalog) -> None:
    box = Toolbox([HardFilterTool(film_db), ItemInfoTool(ItemResolver(films), {})])
    lines = box.describe().splitlines()
    assert lines[0].startswith("filter_items[{JSON}]: Find items that meet hard conditions")
    assert lines[0].endswith(
        "Arguments (JSON): genres, exclude_genres, year_min, year_max, min_interactions, "
        "max_interactions, within, order_by, limit."
    )
    assert lines[1].startswith("item_info[items]: Look up facts")


async def test_an_autogen_workbench_calls_the_tool(film_db: Path) -> None:
    bench = StaticWorkbench([SqlQueryTool(film_db), HardFilterTool(film_db)])
    listed = await bench.list_tools()
    assert [t["name"] for t in listed] == ["sql_query", "filter_items"]
    result = await bench.call_tool("filter_items", {"genres": ["Horror"]})
    assert not result.is_error
    assert result.to_text() == "6 | Haunted Manor (1999)"
    refused = await bench.call_tool("sql_query", {"sql": "DROP TABLE items"})
    assert refused.to_text().startswith("Error: refused: only SELECT queries")

"""lessons_lib: the library behind the course notebooks, every lesson from 00 to 69.

One tool call followed end to end: ``read_text_file`` on an MCP file service, declared to an
OpenAI Responses model, run by an application loop. Importing this package is cheap and has
no side effects but one: every public name is loaded from its module on first use, and
the process's first ``import jsonschema`` builds its IRI grammars on first use too
(:mod:`lessons_lib.engine.lazyschema`: the same checks, about 1-3 s less per kernel).
The kernel's names are listed in ``_EXPORTS``; each example's come from its entry
(``lessons_lib/examples/<name>/__init__.py``, found by :mod:`lessons_lib.core.plugins.exampleregistry`).
Type checkers and IDEs read the ``if TYPE_CHECKING:`` block instead, which imports every name from
its module; it is generated from both by ``python tests/package/test_facade_typed.py``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from lessons_lib.engine import lazyschema as _lazyschema

__version__ = "0.1.0"
_lazyschema.install()

# the kernel's public names -> module that defines it (``module:name`` when its name there differs)
_EXPORTS: dict[str, str] = {
    # vocabulary and example values
    "KINDS": "lessons_lib.core.glossary",
    "STEPS": "lessons_lib.core.glossary",
    "STEP_ZH": "lessons_lib.core.glossary",
    "TERMS_ZH": "lessons_lib.core.glossary",
    "set_language": "lessons_lib.core.messages",
    "language": "lessons_lib.core.messages",
    "say": "lessons_lib.core.messages",
    "colour_legend": "lessons_lib.views.legend",
    "left_aligned": "lessons_lib.views.frames",
    "DATA_DIR": "lessons_lib.core.paths",
    "WORKSPACE_DIR": "lessons_lib.core.paths",
    "LOGICAL_ROOT": "lessons_lib.core.paths",
    "TASK": "lessons_lib.core.example",
    "MODEL_NAME": "lessons_lib.core.example",
    "task_text": "lessons_lib.core.example",
    "FAILURE_PREFIX": "lessons_lib.core.example",
    # engine (lessons 01-06)
    "run_chain": "lessons_lib.engine.host",
    "Limits": "lessons_lib.engine.host",
    "Script": "lessons_lib.engine.standins.rules",
    "Trace": "lessons_lib.core.traces.trace",
    "load_trace": "lessons_lib.core.traces.trace",
    "load_fixture": "lessons_lib.course.record",
    "record_fixtures": "lessons_lib.course.record",
    "live_status": "lessons_lib.engine.models",
    "client_retries": "lessons_lib.engine.apis",
    # verifiers (lessons 07-08)
    "verify_fields": "lessons_lib.checks.verify",
    "verify_roundtrip": "lessons_lib.checks.verify",
    "SABOTAGES": "lessons_lib.checks.sabotage",
    "run_sabotage": "lessons_lib.checks.sabotage",
    "diagnose": "lessons_lib.checks.doctor",
    # views (lessons 03-06)
    "field_tree": "lessons_lib.views.fieldtree",
    "side_by_side": "lessons_lib.views.sidebyside",
    "actors_diagram": "lessons_lib.views.diagrams",
    "loop_diagram": "lessons_lib.views.diagrams",
    "chain_diagram": "lessons_lib.views.diagrams",
    "trace_diagram": "lessons_lib.views.sequence",
    "Diagram": "lessons_lib.views.dot",
    "FieldTree": "lessons_lib.views.fieldtree",
    "kind_of": "lessons_lib.core.fieldkinds.kinds",
    "detect_type": "lessons_lib.core.fieldkinds.msgtype",
    "renderer_name": "lessons_lib.views.dot",
    "render_svg": "lessons_lib.views.dot",
    # lessons' helpers
    "questions": "lessons_lib.course.quiz",
    "check": "lessons_lib.course.quiz",
    "narrate": "lessons_lib.views.narrate",
    "message_counts": "lessons_lib.views.narrate",
    "outcome_text": "lessons_lib.core.outcomes",
    "spec_fields": "lessons_lib.core.specfields",
    "spec_definition": "lessons_lib.core.specfields",
    "try_live": "lessons_lib.course.live",
    "environment_check": "lessons_lib.course.envcheck",
    # write the loop yourself (lessons 03, 06, 07, 11)
    "workbench": "lessons_lib.workshop.loop.kit",
    "check_step": "lessons_lib.workshop.loop.steps",
    "check_exercise": "lessons_lib.workshop.loop.early",
    "grade_loop": "lessons_lib.workshop.loop.grading",
    "grade_file": "lessons_lib.workshop.loop.grading_files",
    # write an MCP server yourself (lesson 12)
    "grade_server": "lessons_lib.workshop.server.grading",
    "grade_server_file": "lessons_lib.workshop.server.grading",
    "grade_course_server": "lessons_lib.workshop.server.grading",
    "notes_service": "lessons_lib.workshop.server.loop",
    # the same call in three APIs (lessons 20-22)
    "API_SABOTAGES": "lessons_lib.apis.sabotage",
    "run_api_sabotage": "lessons_lib.apis.sabotage",
    "replay": "lessons_lib.apis.replay",
    "replay_all": "lessons_lib.apis.replay",
    "api_map": "lessons_lib.apis.apimap",
    "api_side_by_side": "lessons_lib.apis.apimap",
    "check_feedback_message": "lessons_lib.apis.exercise",
    "compare_tool_choices": "lessons_lib.apis.choices",
    # the standards' own checks (lessons 40-44)
    "tool_errors": "lessons_lib.engine.specs",
    "openai_errors": "lessons_lib.engine.specs",
    "mcp_errors": "lessons_lib.engine.specs",
    "frame_errors": "lessons_lib.engine.specs",
    # exercises and checks of part two (lessons 30-52)
    "check_named_choice": "lessons_lib.course.exercises.parttwo",
    "check_chained_request": "lessons_lib.course.exercises.parttwo",
    "check_layer_choice": "lessons_lib.course.exercises.parttwo",
    "check_resource_and_prompt": "lessons_lib.course.exercises.parttwo",
    "check_new_revision_call": "lessons_lib.course.exercises.parttwo",
    "check_output_schema": "lessons_lib.course.exercises.parttwo",
    "verify_calls": "lessons_lib.checks.manycalls",
    "check_calls": "lessons_lib.checks.ledger",
    "check_fingerprint": "lessons_lib.course.exercises.evolve",
    "Defences": "lessons_lib.engine.screens",
    "check_screen": "lessons_lib.course.exercises.evolve",
    "check_allowed": "lessons_lib.course.exercises.manytools",
    # quick reference (lesson 10)
    "quick_reference": "lessons_lib.course.cheatsheet",
    "command_list": "lessons_lib.course.cheatsheet",
}

if TYPE_CHECKING:  # generated from _EXPORTS and the examples by tests/package/test_facade_typed.py
    from lessons_lib.apis.apimap import api_map as api_map
    from lessons_lib.apis.apimap import api_side_by_side as api_side_by_side
    from lessons_lib.apis.choices import compare_tool_choices as compare_tool_choices
    from lessons_lib.apis.exercise import check_feedback_message as check_feedback_message
    from lessons_lib.apis.replay import replay as replay
    from lessons_lib.apis.replay import replay_all as replay_all
    from lessons_lib.apis.sabotage import API_SABOTAGES as API_SABOTAGES
    from lessons_lib.apis.sabotage import run_api_sabotage as run_api_sabotage
    from lessons_lib.checks.doctor import diagnose as diagnose
    from lessons_lib.checks.ledger import check_calls as check_calls
    from lessons_lib.checks.manycalls import verify_calls as verify_calls
    from lessons_lib.checks.sabotage import SABOTAGES as SABOTAGES
    from lessons_lib.checks.sabotage import run_sabotage as run_sabotage
    from lessons_lib.checks.verify import verify_fields as verify_fields
    from lessons_lib.checks.verify import verify_roundtrip as verify_roundtrip
    from lessons_lib.core.example import FAILURE_PREFIX as FAILURE_PREFIX
    from lessons_lib.core.example import MODEL_NAME as MODEL_NAME
    from lessons_lib.core.example import TASK as TASK
    from lessons_lib.core.example import task_text as task_text
    from lessons_lib.core.fieldkinds.kinds import kind_of as kind_of
    from lessons_lib.core.fieldkinds.msgtype import detect_type as detect_type
    from lessons_lib.core.glossary import KINDS as KINDS
    from lessons_lib.core.glossary import STEP_ZH as STEP_ZH
    from lessons_lib.core.glossary import STEPS as STEPS
    from lessons_lib.core.glossary import TERMS_ZH as TERMS_ZH
    from lessons_lib.core.messages import language as language
    from lessons_lib.core.messages import say as say
    from lessons_lib.core.messages import set_language as set_language
    from lessons_lib.core.outcomes import outcome_text as outcome_text
    from lessons_lib.core.paths import DATA_DIR as DATA_DIR
    from lessons_lib.core.paths import LOGICAL_ROOT as LOGICAL_ROOT
    from lessons_lib.core.paths import WORKSPACE_DIR as WORKSPACE_DIR
    from lessons_lib.core.specfields import spec_definition as spec_definition
    from lessons_lib.core.specfields import spec_fields as spec_fields
    from lessons_lib.core.traces.trace import Trace as Trace
    from lessons_lib.core.traces.trace import load_trace as load_trace
    from lessons_lib.course.cheatsheet import command_list as command_list
    from lessons_lib.course.cheatsheet import quick_reference as quick_reference
    from lessons_lib.course.envcheck import environment_check as environment_check
    from lessons_lib.course.exercises.evolve import check_fingerprint as check_fingerprint
    from lessons_lib.course.exercises.evolve import check_screen as check_screen
    from lessons_lib.course.exercises.manytools import check_allowed as check_allowed
    from lessons_lib.course.exercises.parttwo import check_chained_request as check_chained_request
    from lessons_lib.course.exercises.parttwo import check_layer_choice as check_layer_choice
    from lessons_lib.course.exercises.parttwo import check_named_choice as check_named_choice
    from lessons_lib.course.exercises.parttwo import check_new_revision_call as check_new_revision_call
    from lessons_lib.course.exercises.parttwo import check_output_schema as check_output_schema
    from lessons_lib.course.exercises.parttwo import check_resource_and_prompt as check_resource_and_prompt
    from lessons_lib.course.live import try_live as try_live
    from lessons_lib.course.quiz import check as check
    from lessons_lib.course.quiz import questions as questions
    from lessons_lib.course.record import load_fixture as load_fixture
    from lessons_lib.course.record import record_fixtures as record_fixtures
    from lessons_lib.engine.apis import client_retries as client_retries
    from lessons_lib.engine.host import Limits as Limits
    from lessons_lib.engine.host import run_chain as run_chain
    from lessons_lib.engine.models import live_status as live_status
    from lessons_lib.engine.screens import Defences as Defences
    from lessons_lib.engine.specs import frame_errors as frame_errors
    from lessons_lib.engine.specs import mcp_errors as mcp_errors
    from lessons_lib.engine.specs import openai_errors as openai_errors
    from lessons_lib.engine.specs import tool_errors as tool_errors
    from lessons_lib.engine.standins.rules import Script as Script
    from lessons_lib.examples.evolve.catalogue import SIZES as SIZES
    from lessons_lib.examples.evolve.catalogue import catalogue as catalogue
    from lessons_lib.examples.evolve.catalogue import declared_catalogue as declared_catalogue
    from lessons_lib.examples.evolve.catalogue import token_count as token_count
    from lessons_lib.examples.evolve.catalogue import tokenizer_label as tokenizer_label
    from lessons_lib.examples.evolve.fieldcompat import field_changes as field_changes
    from lessons_lib.examples.evolve.fieldcompat import versioned_names as versioned_names
    from lessons_lib.examples.evolve.injection import ATTACK_TASK as ATTACK_TASK
    from lessons_lib.examples.evolve.injection import DEFENCES as DEFENCES
    from lessons_lib.examples.evolve.injection import NOTES_DIR as NOTES_DIR
    from lessons_lib.examples.evolve.injection import attack_table as attack_table
    from lessons_lib.examples.evolve.injection import run_attack as run_attack
    from lessons_lib.examples.evolve.manytools_requests import anthropic_search as anthropic_search
    from lessons_lib.examples.evolve.manytools_requests import anthropic_type_errors as anthropic_type_errors
    from lessons_lib.examples.evolve.manytools_requests import chat_allowed as chat_allowed
    from lessons_lib.examples.evolve.manytools_requests import input_tokens_request as input_tokens_request
    from lessons_lib.examples.evolve.manytools_requests import openai_shape_errors as openai_shape_errors
    from lessons_lib.examples.evolve.manytools_requests import responses_allowed as responses_allowed
    from lessons_lib.examples.evolve.manytools_requests import responses_deferred as responses_deferred
    from lessons_lib.examples.evolve.selection import SELECTION_TASKS as SELECTION_TASKS
    from lessons_lib.examples.evolve.selection import live_choice as live_choice
    from lessons_lib.examples.evolve.selection import misses as misses
    from lessons_lib.examples.evolve.selection import route_domain as route_domain
    from lessons_lib.examples.evolve.selection import search_tools as search_tools
    from lessons_lib.examples.evolve.selection import selection_table as selection_table
    from lessons_lib.examples.evolve.selection import shown as shown
    from lessons_lib.examples.evolve.toolreplay import load_baseline as load_baseline
    from lessons_lib.examples.evolve.toolreplay import replay_version as replay_version
    from lessons_lib.examples.evolve.toolversions import DESK_V1 as DESK_V1
    from lessons_lib.examples.evolve.toolversions import DESK_V1_1 as DESK_V1_1
    from lessons_lib.examples.evolve.toolversions import DESK_V2 as DESK_V2
    from lessons_lib.examples.evolve.toolversions import run_version as run_version
    from lessons_lib.examples.evolve.toolwatch import fingerprint as fingerprint
    from lessons_lib.examples.evolve.toolwatch import watch_upgrade as watch_upgrade
    from lessons_lib.examples.evolve.upgrade import acceptance_rows as acceptance_rows
    from lessons_lib.examples.evolve.upgrade import release_table as release_table
    from lessons_lib.examples.evolve.upgrade import watch_table as watch_table
    from lessons_lib.examples.files.badvalues import BAD_VALUES as BAD_VALUES
    from lessons_lib.examples.files.badvalues import bad_values_table as bad_values_table
    from lessons_lib.examples.files.badvalues import run_bad_value as run_bad_value
    from lessons_lib.examples.files.scenarios import SCENARIOS as SCENARIOS
    from lessons_lib.examples.files.scenarios import run_scenario as run_scenario
    from lessons_lib.examples.files.whatif import compare_head as compare_head
    from lessons_lib.examples.files.whatif import compare_runs as compare_runs
    from lessons_lib.examples.files.whatif import compare_tail as compare_tail
    from lessons_lib.examples.files.widgets import head_lab as head_lab
    from lessons_lib.examples.files.widgets import head_view as head_view
    from lessons_lib.examples.mcp.revisions import REVISIONS as REVISIONS
    from lessons_lib.examples.mcp.revisions import record_revisions as record_revisions
    from lessons_lib.examples.mcp.revisiontable import revision_table as revision_table
    from lessons_lib.examples.mcp.structure import labelled as labelled
    from lessons_lib.examples.mcp.structure import tour_structure as tour_structure
    from lessons_lib.examples.mcp.structured import call_structured as call_structured
    from lessons_lib.examples.mcp.structured import feedback_per_api as feedback_items  # noqa: F401 (renamed: not an explicit re-export)
    from lessons_lib.examples.openapi.app import openapi_document as openapi_document
    from lessons_lib.examples.openapi.choices import choice_table as choice_table
    from lessons_lib.examples.openapi.exercise import check_declaration as check_declaration
    from lessons_lib.examples.openapi.router import call_order_tool as call_order_tool
    from lessons_lib.examples.openapi.threeways import run_three_ways as run_three_ways
    from lessons_lib.examples.openapi.tools import chat_tool as chat_tool
    from lessons_lib.examples.openapi.tools import flatten as flatten
    from lessons_lib.examples.openapi.tools import operations as operations
    from lessons_lib.examples.openapi.tools import resolve as resolve
    from lessons_lib.examples.openapi.tools import responses_tool as responses_tool
    from lessons_lib.examples.openapi.tools import strict_report as strict_report
    from lessons_lib.examples.orders.acceptance import acceptance_matrix as acceptance_matrix
    from lessons_lib.examples.orders.acceptance import rejecting_values as rejecting_values
    from lessons_lib.examples.orders.callflow import call_flow as call_flow
    from lessons_lib.examples.orders.calllayer import intent_key as intent_key
    from lessons_lib.examples.orders.calllayer import sent_key as sent_key
    from lessons_lib.examples.orders.exercises import check_confirm as check_confirm
    from lessons_lib.examples.orders.exercises import check_intent_key as check_intent_key
    from lessons_lib.examples.orders.exercises import check_pairing as check_pairing
    from lessons_lib.examples.orders.exercises import check_waybill_schema as check_waybill_schema
    from lessons_lib.examples.orders.finder import run_finder as run_finder
    from lessons_lib.examples.orders.guards import SYSTEM_RULES as SYSTEM_RULES
    from lessons_lib.examples.orders.guards import Guards as Guards
    from lessons_lib.examples.orders.lab import EXECUTE_SQL_TOOL as EXECUTE_SQL_TOOL
    from lessons_lib.examples.orders.lab import TRACK as TRACK
    from lessons_lib.examples.orders.lab import execute_sql_demo as execute_sql_demo
    from lessons_lib.examples.orders.lab import ledger_table as ledger_table
    from lessons_lib.examples.orders.lab import order_scenarios as order_scenarios
    from lessons_lib.examples.orders.lab import run_order_scenario as run_order_scenario
    from lessons_lib.examples.orders.reconcile import cancel_notice as cancel_notice
    from lessons_lib.examples.orders.reconcile import lookup_key as lookup_key
    from lessons_lib.examples.orders.run import run_orders as run_orders
    from lessons_lib.examples.orders.sabotage import try_call_sabotages as try_call_sabotages
    from lessons_lib.services.files.service import INPUT_SCHEMA as INPUT_SCHEMA
    from lessons_lib.services.files.service import FileService as FileService
    from lessons_lib.services.files.service import build_server as build_server
    from lessons_lib.services.files.service import read_text_file as read_text_file
    from lessons_lib.services.files.service import service_reads as service_reads
    from lessons_lib.services.orders.data import create_database as create_database
    from lessons_lib.services.orders.service import OrderDesk as OrderDesk
    from lessons_lib.services.orders.standin import Quirks as Quirks
    from lessons_lib.services.orders.tools import ORDER_TOOLS as ORDER_TOOLS
    from lessons_lib.services.orders.wiretext import INVESTIGATE as INVESTIGATE
    from lessons_lib.views.diagrams import actors_diagram as actors_diagram
    from lessons_lib.views.diagrams import chain_diagram as chain_diagram
    from lessons_lib.views.diagrams import loop_diagram as loop_diagram
    from lessons_lib.views.dot import Diagram as Diagram
    from lessons_lib.views.dot import render_svg as render_svg
    from lessons_lib.views.dot import renderer_name as renderer_name
    from lessons_lib.views.fieldtree import FieldTree as FieldTree
    from lessons_lib.views.fieldtree import field_tree as field_tree
    from lessons_lib.views.frames import left_aligned as left_aligned
    from lessons_lib.views.legend import colour_legend as colour_legend
    from lessons_lib.views.narrate import message_counts as message_counts
    from lessons_lib.views.narrate import narrate as narrate
    from lessons_lib.views.sequence import trace_diagram as trace_diagram
    from lessons_lib.views.sidebyside import side_by_side as side_by_side
    from lessons_lib.workshop.loop.early import check_exercise as check_exercise
    from lessons_lib.workshop.loop.grading import grade_loop as grade_loop
    from lessons_lib.workshop.loop.grading_files import grade_file as grade_file
    from lessons_lib.workshop.loop.kit import workbench as workbench
    from lessons_lib.workshop.loop.steps import check_step as check_step
    from lessons_lib.workshop.server.grading import grade_course_server as grade_course_server
    from lessons_lib.workshop.server.grading import grade_server as grade_server
    from lessons_lib.workshop.server.grading import grade_server_file as grade_server_file
    from lessons_lib.workshop.server.loop import notes_service as notes_service


def _example_names() -> list[str]:
    """The examples' public names, from their entries (finding them imports no example's module)."""
    from lessons_lib.core.plugins.exampleregistry import public_parts

    return list(public_parts())


def __getattr__(name: str) -> Any:
    if name == "__all__":  # every public name: the kernel's and the examples'
        return sorted({*_EXPORTS, *_example_names()})
    target = _EXPORTS.get(name)
    if target is not None:
        module, _, defined = target.partition(":")
        value = getattr(importlib.import_module(module), defined or name)
    elif name.startswith("__"):
        raise AttributeError(f"module 'lessons_lib' has no attribute {name!r}")
    else:
        from lessons_lib.core.plugins.exampleregistry import public_parts

        part = public_parts().get(name)
        if part is None:
            raise AttributeError(f"module 'lessons_lib' has no attribute {name!r}")
        value = part.load(name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS) | set(_example_names()))

"""The catalogue of wrong loops: each is a correct loop of this folder with one mistake typed in.

Written from the lesson's contract alone, not from the grader's checks. ``Wrong.link`` is the
first broken link the grader must name, ``Wrong.case`` the hidden case that first exposes it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Wrong:
    base: str  # a correct loop of this folder (file stem)
    old: str  # text that must occur exactly once in it
    new: str
    link: str
    case: str
    function: str = "app_loop"


INL, WHL, REC, CLS = "ok_inline", "ok_while", "ok_recursion", "ok_class"

WRONG = {
    "arguments sent as text": Wrong(
        INL, '"arguments": args}', '"arguments": call.arguments}', "arguments_text", "example"
    ),
    "alias sent to the service": Wrong(
        INL, '{"name": routes[call.name],', '{"name": call.name,', "alias", "example"
    ),
    "feedback paired with the item id": Wrong(
        INL,
        '"call_id": call.call_id, "output": output}',
        '"call_id": call.id, "output": output}',
        "ids",
        "example",
    ),
    "feedback without call_id": Wrong(
        INL, '"call_id": call.call_id, "output": output}', '"output": output}', "ids", "example"
    ),
    "original call dropped from the context": Wrong(
        INL,
        "items = items + [item.to_dict() for item in response.output] + outputs",
        "items = items + outputs",
        "context",
        "example",
    ),
    "outputs before the model's items": Wrong(
        INL,
        "items = items + [item.to_dict() for item in response.output] + outputs",
        "items = items + outputs + [item.to_dict() for item in response.output]",
        "context",
        "example",
    ),
    "model call_id put into the MCP params": Wrong(
        INL,
        '{"name": routes[call.name], "arguments": args}',
        '{"name": routes[call.name], "arguments": args, "call_id": call.call_id}',
        "ids",
        "example",
    ),
    "isError read as a required field": Wrong(
        INL, 'if result.get("isError") else text', 'if result["isError"] else text', "crashed", "another_head"
    ),
    "task dropped from the context": Wrong(
        INL,
        "items = items + [item.to_dict() for item in response.output] + outputs",
        "items = [item.to_dict() for item in response.output] + outputs",
        "context",
        "example",
    ),
    "tool text shown, no second request": Wrong(
        INL,
        "        items = items + [item.to_dict() for item in response.output] + outputs\n",
        '        return outputs[0]["output"]\n',
        "next_input",
        "example",
    ),
    "first output item taken as the call": Wrong(
        INL,
        'calls = [item for item in response.output if item.type == "function_call"]',
        "calls = [response.output[0]]",
        "first_item",
        "example",
    ),
    "only the first call executed": Wrong(
        INL, "for call in calls:", "for call in calls[:1]:", "unexecuted", "two_calls"
    ),
    "tool failure reported as success": Wrong(
        INL,
        'output = FAILURE_PREFIX + text if result.get("isError") else text',
        "output = text",
        "feedback",
        "missing_file",
    ),
    "protocol error reported as success": Wrong(
        WHL,
        """text, failed = f"protocol error {reply['error']['code']}: {reply['error']['message']}", True""",
        """text, failed = reply["error"]["message"], False""",
        "feedback",
        "protocol_error",
    ),
    "protocol error crashes the loop": Wrong(
        REC, 'if "result" not in reply:', 'if "result" not in reply and False:', "crashed", "protocol_error"
    ),
    "JSON-RPC id reused": Wrong(INL, '"id": fs.next_id(),', '"id": 3,', "id_reused", "two_calls"),
    "no round limit": Wrong(INL, "for _ in range(max_rounds):", "while True:", "no_limit", "endless"),
    "one round too many": Wrong(
        INL, "for _ in range(max_rounds):", "for _ in range(max_rounds + 1):", "no_limit", "endless"
    ),
    "one round too few": Wrong(
        WHL, "while rounds < max_rounds:", "while rounds < max_rounds - 1:", "round_limit", "endless"
    ),
    "round limit hard-coded to 3": Wrong(
        INL, "for _ in range(max_rounds):", "for _ in range(3):", "no_limit", "endless_2"
    ),
    "nothing said at the limit": Wrong(
        INL,
        'return f"stopped after {max_rounds} rounds: the model kept calling tools, no answer"',
        "return None",
        "stop_message",
        "endless",
    ),
    "tool text returned at the limit": Wrong(
        WHL,
        'return "循环已到轮数上限，模型仍在要求调用工具，没有得到回答。"',
        'return items[-1]["output"]',
        "stop_message",
        "endless",
    ),
    "values hard-coded": Wrong(
        INL,
        "args = json.loads(call.arguments)",
        'args = {"path": "/workspace/notes.txt", "head": 20}',
        "hard_coded",
        "another_head",
    ),
    "task hard-coded": Wrong(
        INL,
        'items = [{"role": "user", "content": task}]',
        'items = [{"role": "user", "content": TASK_EXAMPLE}]',
        "task",
        "another_head",
    ),
    "tool_choice required on every request": Wrong(
        INL,
        "input=items, tools=tools)",
        'input=items, tools=tools, tool_choice="required")',
        "tool_choice",
        "example",
    ),
    "tool_choice forced on later requests": Wrong(
        WHL,
        'tool_choice="auto")',
        'tool_choice="auto" if rounds == 1 else "required")',
        "tool_choice",
        "example",
    ),
    "tools declared on the first request only": Wrong(
        WHL,
        "input=items, tools=tools,",
        "input=items, tools=tools if rounds == 1 else [],",
        "declaration",
        "example",
    ),
    "rule changed in the listed tool": Wrong(
        INL,
        "schema = tool.input_schema",
        'schema = tool.input_schema\n        schema["additionalProperties"] = False',
        "declaration",
        "example",
    ),
    "service name hard-coded": Wrong(
        INL,
        'alias = f"{fs.name}__{tool.name}"',
        'alias = f"fs__{tool.name}"',
        "declaration",
        "renamed_service",
    ),
    "strict left out": Wrong(
        INL, '"parameters": schema, "strict": False}', '"parameters": schema}', "declaration", "example"
    ),
    "alias without the service": Wrong(
        REC,
        '"name": f"{fs.name}__{t.name}",\n',
        '"name": t.name,\n',
        "declaration",
        "example",
    ),
    "extra request after the answer": Wrong(
        INL,
        "            return response.output_text\n",
        "            items = items + [item.to_dict() for item in response.output]\n            continue\n",
        "extra_requests",
        "example",
    ),
    "answer rewritten": Wrong(
        INL, "return response.output_text", 'return "答案：" + response.output_text', "answer", "example"
    ),
    "non-JSON arguments crash the loop": Wrong(
        INL,
        "                except ValueError as exc:\n                    args, output",
        "                except KeyError as exc:\n                    args, output",
        "bad_arguments",
        "bad_arguments",
    ),
    "non-JSON arguments executed anyway": Wrong(
        WHL,
        'items.append(refused(call.call_id, f"bad JSON: {exc}"))\n                continue',
        "args = {}",
        "bad_arguments",
        "bad_arguments",
    ),
    "non-JSON arguments fed back as success": Wrong(
        WHL,
        'items.append(refused(call.call_id, f"bad JSON: {exc}"))',
        'items.append({"type": "function_call_output", "call_id": call.call_id, "output": "unparsed"})',
        "bad_arguments",
        "bad_arguments",
    ),
    "unknown alias crashes the loop": Wrong(
        INL, "if call.name not in routes:", "if False:", "unknown_alias", "unknown_alias"
    ),
    "unknown alias ends the loop": Wrong(
        WHL,
        'items.append(refused(call.call_id, f"no tool named {call.name}"))\n                continue',
        'return f"no tool named {call.name}"',
        "unknown_alias",
        "unknown_alias",
    ),
    "every call sent twice": Wrong(
        REC,
        "    reply = fs.send(request, call_id=call.call_id)\n",
        "    fs.send(request)\n"
        '    request = {**request, "id": fs.next_id()}\n'
        "    reply = fs.send(request, call_id=call.call_id)\n",
        "extra_call",
        "example",
    ),
    "two services: every call sent to the first": Wrong(
        CLS,
        "session = self.services[service]",
        "session = next(iter(self.services.values()))",
        "route",
        "two_services",
        "app_loop_many",
    ),
    "two services: only the first service declared": Wrong(
        CLS,
        "        for service in services:\n            for tool",
        "        for service in services[:1]:\n            for tool",
        "declaration",
        "two_services",
        "app_loop_many",
    ),
}

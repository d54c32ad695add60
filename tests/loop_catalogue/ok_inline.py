"""A correct loop written from the contract alone: everything inline in one function."""

import json

FAILURE_PREFIX = "ERROR: "
MODEL = "gpt-4.1"
TASK_EXAMPLE = "请读取 /workspace/notes.txt 的前 20 行。"


def app_loop(task, model, fs, max_rounds=3):
    tools, routes = [], {}
    for tool in fs.list_tools().tools:
        alias = f"{fs.name}__{tool.name}"
        schema = tool.input_schema
        entry = {"type": "function", "name": alias, "description": tool.description or ""}
        tools.append({**entry, "parameters": schema, "strict": False})
        routes[alias] = tool.name
    items = [{"role": "user", "content": task}]
    for _ in range(max_rounds):
        response = model.responses.create(model=MODEL, input=items, tools=tools)
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            return response.output_text
        outputs = []
        for call in calls:
            output = None
            if call.name not in routes:
                output = FAILURE_PREFIX + f"unknown tool {call.name}; nothing was executed"
            else:
                try:
                    args = json.loads(call.arguments)
                except ValueError as exc:
                    args, output = None, FAILURE_PREFIX + f"arguments is not valid JSON ({exc})"
                if output is None and not isinstance(args, dict):
                    output = FAILURE_PREFIX + "arguments must be a JSON object"
            if output is None:
                frame = {"jsonrpc": "2.0", "id": fs.next_id(), "method": "tools/call"}
                frame["params"] = {"name": routes[call.name], "arguments": args}
                reply = fs.send(frame, call_id=call.call_id)
                if "error" in reply:
                    error = reply["error"]
                    output = f"{FAILURE_PREFIX}protocol error {error['code']}: {error['message']}"
                else:
                    result = reply["result"]
                    text = "\n".join(b["text"] for b in result["content"] if b["type"] == "text")
                    output = FAILURE_PREFIX + text if result.get("isError") else text
            outputs.append({"type": "function_call_output", "call_id": call.call_id, "output": output})
        items = items + [item.to_dict() for item in response.output] + outputs
    return f"stopped after {max_rounds} rounds: the model kept calling tools, no answer"

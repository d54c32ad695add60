"""A correct loop: a while loop with a round counter and small helpers of its own."""

import json

FAILURE_PREFIX = "ERROR: "


def declare(fs):
    tools, routes = [], {}
    for tool in fs.list_tools().tools:
        alias = fs.name + "__" + tool.name
        tools.append(
            {
                "type": "function",
                "name": alias,
                "description": tool.description,
                "parameters": tool.input_schema,
                "strict": False,
            }
        )
        routes[alias] = tool.name
    return tools, routes


def feedback(call_id, reply):
    if "error" in reply:
        text, failed = f"protocol error {reply['error']['code']}: {reply['error']['message']}", True
    else:
        text = "\n".join(part["text"] for part in reply["result"]["content"] if part["type"] == "text")
        failed = reply["result"].get("isError", False)
    return {
        "type": "function_call_output",
        "call_id": call_id,
        "output": (FAILURE_PREFIX if failed else "") + text,
    }


def refused(call_id, why):
    return {"type": "function_call_output", "call_id": call_id, "output": FAILURE_PREFIX + why}


def app_loop(task, model, fs, max_rounds=3):
    tools, routes = declare(fs)
    items = [{"role": "user", "content": task}]
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        response = model.responses.create(model="gpt-4.1", input=items, tools=tools, tool_choice="auto")
        items = items + [item.to_dict() for item in response.output]
        calls = [item for item in response.output if item.type == "function_call"]
        if len(calls) == 0:
            return response.output_text
        for call in calls:
            tool = routes.get(call.name)
            if tool is None:
                items.append(refused(call.call_id, f"no tool named {call.name}"))
                continue
            try:
                args = json.loads(call.arguments)
            except json.JSONDecodeError as exc:
                items.append(refused(call.call_id, f"bad JSON: {exc}"))
                continue
            frame = {
                "jsonrpc": "2.0",
                "id": fs.next_id(),
                "method": "tools/call",
                "params": {"name": tool, "arguments": args},
            }
            items.append(feedback(call.call_id, fs.send(frame)))
    return "循环已到轮数上限，模型仍在要求调用工具，没有得到回答。"

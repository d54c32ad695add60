"""A correct loop written as recursion: one model turn per call, the rounds left as an argument."""

import json


def _output(call, fs, routes):
    if call.name not in routes:
        return "ERROR: unknown tool " + call.name
    try:
        args = json.loads(call.arguments)
    except ValueError:
        return "ERROR: the arguments are not JSON; nothing ran"
    if not isinstance(args, dict):
        return "ERROR: the arguments are not an object"
    request = {
        "jsonrpc": "2.0",
        "id": fs.next_id(),
        "method": "tools/call",
        "params": {"name": routes[call.name], "arguments": args},
    }
    reply = fs.send(request, call_id=call.call_id)
    if "result" not in reply:
        return "ERROR: protocol error {}: {}".format(reply["error"]["code"], reply["error"]["message"])
    text = "\n".join(c["text"] for c in reply["result"]["content"] if c["type"] == "text")
    return "ERROR: " + text if reply["result"].get("isError", False) else text


def _turn(model, fs, tools, routes, items, left):
    if left == 0:
        return "I stopped: the round limit was reached before the model answered."
    response = model.responses.create(model="gpt-4.1", input=items, tools=tools)
    calls = [o for o in response.output if o.type == "function_call"]
    if not calls:
        return response.output_text
    outputs = [
        {"type": "function_call_output", "call_id": c.call_id, "output": _output(c, fs, routes)}
        for c in calls
    ]
    return _turn(model, fs, tools, routes, items + [o.to_dict() for o in response.output] + outputs, left - 1)


def app_loop(task, model, fs, max_rounds=3):
    listed = fs.list_tools().tools
    tools = [
        {
            "type": "function",
            "name": f"{fs.name}__{t.name}",
            "description": t.description,
            "parameters": t.input_schema,
            "strict": False,
        }
        for t in listed
    ]
    routes = {f"{fs.name}__{t.name}": t.name for t in listed}
    return _turn(
        model,
        fs,
        tools,
        routes,
        [{"role": "user", "content": [{"type": "input_text", "text": task}]}],
        max_rounds,
    )

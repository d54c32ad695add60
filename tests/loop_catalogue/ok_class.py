"""A correct loop as a class over several services; app_loop and app_loop_many both use it."""

import json


class Application:
    def __init__(self, model, services):
        self.model = model
        self.services = {service.name: service for service in services}
        self.tools, self.routes = [], {}
        for service in services:
            for tool in service.list_tools().tools:
                alias = f"{service.name}__{tool.name}"
                self.routes[alias] = (service.name, tool.name)
                self.tools.append(
                    dict(
                        type="function",
                        name=alias,
                        description=tool.description,
                        parameters=tool.input_schema,
                        strict=False,
                    )
                )

    def execute(self, call):
        if call.name not in self.routes:
            raise LookupError(f"{call.name} is not a declared tool")
        service, tool = self.routes[call.name]
        args = json.loads(call.arguments)
        if not isinstance(args, dict):
            raise TypeError("arguments must be an object")
        session = self.services[service]
        reply = session.send(
            {
                "jsonrpc": "2.0",
                "id": session.next_id(),
                "method": "tools/call",
                "params": {"name": tool, "arguments": args},
            },
            call_id=call.call_id,
        )
        if "error" in reply:
            return True, "protocol error {}: {}".format(reply["error"]["code"], reply["error"]["message"])
        texts = [block["text"] for block in reply["result"]["content"] if block["type"] == "text"]
        return bool(reply["result"].get("isError", False)), "\n".join(texts)

    def feedback(self, call):
        try:
            failed, text = self.execute(call)
        except (LookupError, TypeError, ValueError) as problem:
            failed, text = True, str(problem)
        return {
            "type": "function_call_output",
            "call_id": call.call_id,
            "output": ("ERROR: " + text) if failed else text,
        }

    def run(self, task, max_rounds):
        context = [{"type": "message", "role": "user", "content": task}]
        for _ in range(max_rounds):
            response = self.model.responses.create(model="gpt-4.1", input=context, tools=self.tools)
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                return response.output_text
            context += [item.to_dict() for item in response.output]
            context += [self.feedback(call) for call in calls]
        return f"没有得到回答：模型在 {max_rounds} 轮里一直要求调用工具，应用停下了。"


def app_loop(task, model, fs, max_rounds=3):
    return Application(model, [fs]).run(task, max_rounds)


def app_loop_many(task, model, services, max_rounds=3):
    return Application(model, services).run(task, max_rounds)

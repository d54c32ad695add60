#!/usr/bin/env python3
"""Check a complete two-round exchange offline, then sabotage it three ways (seed 000, section 7). Lesson 07.

Stand-alone: Python 3.9+ standard library only, no course package; it loads the checks it
shares with ``verify_fields.py`` from that file in the same folder. Run
``python3 verify_roundtrip.py`` (default: ``responses_roundtrip.json`` beside this file) or
``python3 verify_roundtrip.py OTHER.json``; ``--lang en`` (or ``LESSONS_LANG=en``) prints English.
Six checks: the tool declaration is kept, the context of the second round is continuous, the
values reach the service unchanged, the two ids pair each in its own exchange, the tool's own
text reaches the feedback, the second response carries an answer. Then three sabotaged copies
(a wrong call_id, the original call dropped, the arguments text turned into an object) must
each be rejected. Exit code 0 when everything passes, else 1.
"""

import copy
import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load_fields():
    """verify_fields.py from this folder (``python3 -I`` keeps the script's folder off sys.path)."""
    spec = importlib.util.spec_from_file_location("verify_fields", HERE / "verify_fields.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


vf = _load_fields()
say, need, obj, same, show, Fail = vf.say, vf.need, vf.obj, vf.same, vf.show, vf.Fail


def items(request):
    """The input items of a Responses request (a plain string is one user message)."""
    value = request.get("input") if isinstance(request, dict) else None
    if isinstance(value, str):
        return [{"type": "message", "role": "user", "content": value}]
    return [i for i in value if isinstance(i, dict)] if isinstance(value, list) else []


def of_type(body, key, kind):
    value = body.get(key) if isinstance(body, dict) else None
    return (
        [i for i in value if isinstance(i, dict) and i.get("type") == kind] if isinstance(value, list) else []
    )


def calls(rt):
    return of_type(rt.get("response_1"), "output", "function_call")


def outputs(request):
    return [i for i in items(request) if i.get("type") == "function_call_output"]


def answer_text(response):
    texts = []
    for item in of_type(response, "output", "message"):
        for part in item.get("content") or []:
            if (
                isinstance(part, dict)
                and part.get("type") == "output_text"
                and isinstance(part.get("text"), str)
            ):
                texts.append(part["text"])
    return "".join(texts)


def fragments(rt):
    """The pieces of the first call inside the round trip, like field_fragments.json."""
    found = calls(rt)
    call = found[0] if found else None
    call_id = call.get("call_id") if call else None
    tools = of_type(rt.get("request_1"), "tools", "function")
    outs = outputs(rt.get("request_2"))
    links = (
        [r for r in rt.get("links") or [] if isinstance(r, dict)] if isinstance(rt.get("links"), list) else []
    )
    name = call.get("name") if call else None
    return {
        "declaration": next((t for t in tools if t.get("name") == name), tools[0] if tools else None),
        "mcp_declaration": None,
        "model_call": call,
        "mcp_request": rt.get("mcp_request"),
        "mcp_result": rt.get("mcp_response"),
        "feedback": next((o for o in outs if o.get("call_id") == call_id), outs[0] if outs else None),
        "link": next((r for r in links if r.get("call_id") == call_id), links[0] if links else None),
    }


def check_declaration_kept(rt, fr):
    first = obj(rt.get("request_1"), "request_1")
    need(rt.get("request_2") is not None, say("没有第二次请求", "no second request"))
    second = obj(rt.get("request_2"), "request_2")
    tools = first.get("tools")
    need(
        isinstance(tools, list) and tools,
        say("第一次请求没有声明工具", "the first request declares no tools"),
    )
    need(
        same(tools, second.get("tools")),
        say("第二次请求里的工具声明变了", "the tools changed in the second request"),
    )
    names = []
    for n, tool in enumerate(tools):
        if obj(tool, f"request_1.tools[{n}]").get("type") == "function":
            vf.rule_summary(tool.get("parameters"), f"request_1.tools[{n}].parameters")
            names.append(str(tool.get("name")))
    for call in calls(rt):
        need(
            call.get("name") in names,
            say(
                f"调用了没有声明的工具 {show(call.get('name'))}",
                f"a call names an undeclared tool {show(call.get('name'))}",
            ),
        )
    return say("两次请求的工具声明相同：", "both requests declare the same tools: ") + ", ".join(names)


def check_context(rt, fr):
    first = obj(rt.get("request_1"), "request_1")
    need(rt.get("request_2") is not None, say("没有第二次请求", "no second request"))
    second = obj(rt.get("request_2"), "request_2")
    before, after = items(first), items(second)
    need(before, say("第一次请求没有任务", "the first request carries no task"))
    need(
        isinstance(second.get("input"), list),
        say("request_2.input 不是数组", "request_2.input is not an array"),
    )
    need(
        same(before, after[: len(before)]),
        say(
            "第二次请求没有原样保留第一次的输入", "the second request does not keep the first input as it was"
        ),
    )
    found = calls(rt)
    need(found, say("第一次响应里没有调用", "the first response has no call"))
    rest = after[len(before) :]
    for call in found:
        kept = [
            n
            for n, i in enumerate(rest)
            if i.get("type") == "function_call" and i.get("call_id") == call.get("call_id")
        ]
        need(
            kept,
            say(
                f"第二次请求丢了原调用 {show(call.get('call_id'))}",
                f"the second request dropped the original call {show(call.get('call_id'))}",
            ),
        )
        copy_ = rest[kept[0]]
        for key in ("type", "call_id", "name", "arguments", "id", "status"):
            if (key == "status" and key not in copy_) or (
                key == "id" and key not in call and key not in copy_
            ):
                continue
            need(
                key in copy_ and same(call.get(key), copy_.get(key)),
                say(f"原调用的 {key} 被改了", f"the original call's {key} changed"),
            )
        later = [i for i in rest[kept[0] + 1 :] if i.get("type") == "function_call_output"]
        need(later, say("原调用后面没有反馈", "no feedback follows the original call"))
    return say(
        f"保留 {len(before)} 项输入和 {len(found)} 个原调用，再追加反馈",
        f"keeps {len(before)} input item(s) and {len(found)} original call(s), then adds the feedback",
    )


def check_values(rt, fr):
    vf.check_text_object(fr)
    equal = vf.check_values_equal(fr)
    decl = obj(fr.get("declaration"), "declaration")
    vf.values_follow_rule(vf.parse_arguments(fr.get("model_call")), obj(decl.get("parameters"), "parameters"))
    return equal


def check_ids(rt, fr):
    found = calls(rt)
    need(found, say("没有调用可配对", "no call to pair"))
    need(rt.get("request_2") is not None, say("没有第二次请求", "no second request"))
    outs = outputs(rt.get("request_2"))
    ids = [c.get("call_id") for c in found]
    request = rt.get("mcp_request")
    mcp_id = request.get("id") if isinstance(request, dict) else None
    for out in outs:
        got = out.get("call_id")
        need(
            got in ids or mcp_id is None or str(got) != str(mcp_id),
            say(f"反馈用了 MCP 的 id {show(got)}", f"a feedback uses the MCP id {show(got)}"),
        )
        need(
            got in ids,
            say(
                f"反馈的 call_id {show(got)} 不属于任何调用",
                f"the feedback's call_id {show(got)} belongs to no call",
            ),
        )
    for call_id in ids:
        count = sum(1 for o in outs if o.get("call_id") == call_id)
        need(count == 1, say(f"{call_id} 有 {count} 条反馈", f"{call_id} has {count} feedback item(s)"))
    vf.check_mcp_pair(fr)
    need(isinstance(rt.get("links"), list), say("没有 links 记录", "no links record"))
    return vf.check_route(fr)


def check_tool_text(rt, fr):
    return vf.check_feedback(fr)


def check_answer(rt, fr):
    need(rt.get("response_2") is not None, say("没有第二次响应", "no second response"))
    text = answer_text(obj(rt.get("response_2"), "response_2"))
    need(text, say("第二次响应里没有答复文本", "the second response has no answer text"))
    return say(f"答复有 {len(text)} 个字符", f"the answer has {len(text)} characters")


CHECKS = (
    ("declaration_kept", "工具声明保留", "the tool declaration is kept", check_declaration_kept),
    ("context", "两轮上下文连续", "the context of both rounds is continuous", check_context),
    ("values", "调用值原样到达服务", "the values reach the service unchanged", check_values),
    ("ids", "两个编号各自配对", "the two ids pair each in its own exchange", check_ids),
    ("tool_text", "原始工具文本进入反馈", "the tool's own text reaches the feedback", check_tool_text),
    ("answer", "第二次响应是答复", "the second response is an answer", check_answer),
)
CANNOT_PROVE = (
    ("真实接口连通", "the real API is reachable"),
    ("路径可以访问、文件真被读取", "the path may be read and the file was really read"),
    ("模型会这样选择工具", "a model would choose the tool this way"),
    ("最终答复正确、完整", "the final answer is right and complete"),
)


def run(rt):
    """[(key, title, passed, reason)] for the six checks; a wrong shape is a FAIL, never a traceback."""
    rows = []
    for key, zh, en, fn in CHECKS:
        try:
            data = obj(rt, "roundtrip")
            passed, reason = True, fn(data, fragments(data))
        except Fail as exc:
            passed, reason = False, str(exc)
        except Exception as exc:  # any other malformed piece
            passed, reason = (
                False,
                say(f"形状不对（{type(exc).__name__}）", f"wrong shape ({type(exc).__name__})"),
            )
        rows.append((key, say(zh, en), passed, reason))
    return rows


def wrong_id(rt):
    for item in outputs(rt.get("request_2")):
        item["call_id"] = f"{item.get('call_id')}_wrong"


def drop_call(rt):
    rt["request_2"]["input"] = [
        i for i in rt["request_2"]["input"] if not (isinstance(i, dict) and i.get("type") == "function_call")
    ]


def arguments_object(rt):
    for item in items(rt.get("request_2")) + calls(rt):
        if item.get("type") == "function_call" and isinstance(item.get("arguments"), str):
            item["arguments"] = json.loads(item["arguments"])


SABOTAGES = (
    ("wrong_id", "错误编号", "a wrong id", wrong_id),
    ("dropped_call", "丢失原调用", "the original call dropped", drop_call),
    ("arguments_object", "把参数文本改成对象", "the arguments text turned into an object", arguments_object),
)


def trials(rt):
    """[(key, title, rejected, reason)]: each sabotage on a copy must make a check fail."""
    rows = []
    for key, zh, en, sabotage in SABOTAGES:
        broken = copy.deepcopy(rt)
        try:
            sabotage(broken)
        except Exception as exc:  # too malformed to sabotage
            rows.append(
                (
                    key,
                    say(zh, en),
                    False,
                    say(f"无法施加（{type(exc).__name__}）", f"cannot be applied ({type(exc).__name__})"),
                )
            )
            continue
        failed = [f"{title}: {reason}" for _, title, passed, reason in run(broken) if not passed]
        reason = say("已拒绝 — ", "rejected — ") + failed[0] if failed else say("没有被拒绝", "not rejected")
        rows.append((key, say(zh, en), bool(failed), reason))
    return rows


def main(argv):
    argv = vf.choose_language(argv)
    path = argv[0] if argv else str(HERE / "responses_roundtrip.json")
    data = vf.load(path)
    if data is None:
        return 1
    print(
        say(
            f"verify_roundtrip：{Path(path).name} 的完整往返",
            f"verify_roundtrip: the round trip in {Path(path).name}",
        )
    )
    rows = run(data)
    for key, title, passed, reason in rows:
        print(f"{'PASS' if passed else 'FAIL'} [{key}] {title}: {reason}")
    print(say("三种破坏，每一种都必须被拒绝：", "Three sabotages, each must be rejected:"))
    sabotaged = trials(data)
    for key, title, rejected, reason in sabotaged:
        print(f"{'PASS' if rejected else 'FAIL'} [sabotage:{key}] {title}: {reason}")
    print(say("这个本地核对不能证明：", "What this local check cannot prove:"))
    for zh, en in CANNOT_PROVE:
        print(f"  - {say(zh, en)}")
    verdicts = [r[2] for r in rows + sabotaged]
    ok = all(verdicts)
    print(
        say(
            f"结论：{sum(verdicts)}/{len(verdicts)} 通过，退出码 {0 if ok else 1}",
            f"Verdict: {sum(verdicts)}/{len(verdicts)} passed, exit code {0 if ok else 1}",
        )
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

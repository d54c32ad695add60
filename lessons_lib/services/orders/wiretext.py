"""The Chinese the order desk's lessons keep in both editions on purpose. Lessons 30-33.

Not learner messages, so not in the catalogue: the tasks a user types are Chinese in both
editions, like ``core/example.task_text``; the offline stand-in reads those tasks, so the words
it looks for in them (an order number after 订单, a region, a reason) are Chinese too; the
description of a tool declared to a model is wire text, shown as declared (like the tools'
declarations in ``tools.py`` and the system prompt's rules in ``guards.py``); and a note a call
stores is data. What the stand-in and the application say back to the user is in the message
catalogue (``core/catalogue/orders_*.json``).
"""

from __future__ import annotations

import re
from typing import Final

THREE: Final = "订单 O-1042 和 O-1043 是什么状态？延误政策是什么？"
INVESTIGATE: Final = "订单 O-1042 延误三天了，请帮我创建延误调查单。"
TWO_WRITES: Final = "订单 O-1042 延误三天了，外包装还破损了，请帮我创建调查单。"
NO_ID: Final = "我的订单到哪了？"
STATUS: Final = "订单 O-1042 是什么状态？"
HOSTILE: Final = "查询订单 O-1042'OR'1'='1 的状态。"
WHERE: Final = "订单 O-1042 现在到哪了？"
POLICY: Final = "北区的延误政策是什么？"
UNKNOWN: Final = "订单 O-9999 是什么状态？"
FIND_TASK: Final = "我买的键盘到哪了？"

ORDER_TOKEN: Final = re.compile(r"订单\s*(?:号\s*)?([A-Za-z0-9][^\s，。？！,?!]*)")
BOUGHT: Final = re.compile(r"买的(.{1,10}?)(?:到哪|怎么|还没|呢|[，。？?！!])")
TRACK_WORDS: Final = ("到哪", "物流", "运单")
POLICY_WORDS: Final = ("政策", "规则")
WRITE_WORD: Final = "调查"
REASONS: Final = (("丢", "lost"), ("破损", "damaged"), ("错", "wrong_item"), ("延误", "delayed"))
TOPICS: Final = (("丢", "lost"), ("破损", "damage"), ("退货", "return"), ("改地址", "address_change"))
REGIONS: Final = (("北区", "north"), ("东区", "east"), ("南区", "south"), ("西区", "west"))

EXECUTE_SQL_DESCRIPTION: Final = "在订单数据库上执行任意 SQL 语句并返回结果。"
"""The description of lesson 30's ``execute_sql`` declaration (wire text, as declared)."""

VALID_NOTE: Final = "物流停滞三天"
"""The note of lesson 30's valid ``create_investigation`` call: data the desk stores, as sent."""

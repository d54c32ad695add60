-- The order desk's data (lessons 30-39; seed 001). Plain SQL for the standard library's
-- sqlite3: lessons_lib.core.orderdata.create_database() runs this script into a fresh file.
-- Every time is a fixed ISO 8601 string (UTC), never now(): runs and fixtures stay byte-stable.
-- The database file itself is never committed; it is rebuilt from this script.

PRAGMA foreign_keys = ON;

-- Who may see which orders: the desk answers only inside a trusted session (seed 001:
-- "check existence and access permission"). access 'revoked' is the acceptance matrix's
-- "permission revoked" case.
CREATE TABLE customers (
  customer_id TEXT PRIMARY KEY CHECK (customer_id GLOB 'C-[0-9][0-9][0-9]'),
  name        TEXT NOT NULL,
  access      TEXT NOT NULL CHECK (access IN ('active', 'revoked'))
);

-- One row per order. version grows by one on every change; updated_at is the last change.
-- Together they are the evidence a result carries ("order version and update time").
CREATE TABLE orders (
  order_id    TEXT PRIMARY KEY CHECK (order_id GLOB 'O-[0-9]*' AND length(order_id) BETWEEN 3 AND 10),
  customer_id TEXT NOT NULL REFERENCES customers (customer_id),
  status      TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'shipped', 'delivered', 'cancelled')),
  region      TEXT NOT NULL CHECK (region IN ('north', 'east', 'south', 'west')),
  item        TEXT NOT NULL,
  total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
  waybill_no  TEXT REFERENCES shipments (waybill_no),
  version     INTEGER NOT NULL CHECK (version >= 1),
  updated_at  TEXT NOT NULL
);

-- Waybills: the carrier's view of a shipped order. Looking one up needs the waybill number,
-- which only the order carries: the dependent call of lesson 31.
CREATE TABLE shipments (
  waybill_no  TEXT PRIMARY KEY CHECK (waybill_no GLOB 'WB-[0-9]*'),
  order_id    TEXT NOT NULL UNIQUE,
  carrier     TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('in_transit', 'delivered', 'delayed', 'lost')),
  last_event  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);

-- Delivery policies, searched with paging (the list tool: page, page_size, truncated).
CREATE TABLE delivery_policies (
  policy_id   TEXT PRIMARY KEY CHECK (policy_id GLOB 'P-[0-9][0-9]'),
  topic       TEXT NOT NULL CHECK (topic IN ('delay', 'damage', 'lost', 'address_change', 'return')),
  region      TEXT NOT NULL CHECK (region IN ('all', 'north', 'east', 'south', 'west')),
  title       TEXT NOT NULL,
  body        TEXT NOT NULL,
  version     INTEGER NOT NULL CHECK (version >= 1),
  updated_at  TEXT NOT NULL
);

-- Investigations: the one write. idempotency_key is UNIQUE: the same business intent sent
-- twice (two model retries, new call ids) finds the first row instead of adding a second.
-- The key is optional (NULLs never collide in a UNIQUE column): without it, two rows.
CREATE TABLE investigations (
  investigation_id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id         TEXT NOT NULL REFERENCES orders (order_id),
  reason           TEXT NOT NULL CHECK (reason IN ('delayed', 'damaged', 'lost', 'wrong_item')),
  note             TEXT NOT NULL,
  idempotency_key  TEXT UNIQUE,
  status           TEXT NOT NULL CHECK (status IN ('open', 'closed')),
  created_at       TEXT NOT NULL
);

INSERT INTO customers VALUES
  ('C-001', '林小满', 'active'),
  ('C-002', '周启明', 'active'),
  ('C-003', '陈默', 'revoked');

INSERT INTO shipments VALUES
  ('WB-77001', 'O-1001', 'SwiftShip', 'delivered',  '2026-08-03T09:12:00Z 已签收', '2026-08-03T09:12:00Z'),
  ('WB-77042', 'O-1042', 'SwiftShip', 'delayed',    '2026-08-07T18:40:00Z 转运中心滞留', '2026-08-07T18:40:00Z'),
  ('WB-77043', 'O-1043', 'NorthLine', 'in_transit', '2026-08-08T07:05:00Z 已到达分拨中心', '2026-08-08T07:05:00Z'),
  ('WB-77050', 'O-1050', 'NorthLine', 'lost',       '2026-08-02T15:30:00Z 包裹下落不明', '2026-08-05T10:00:00Z');

INSERT INTO orders VALUES
  ('O-1001', 'C-001', 'delivered', 'east',  '保温杯',   8900,  'WB-77001', 4, '2026-08-03T09:15:00Z'),
  ('O-1042', 'C-001', 'shipped',   'north', '机械键盘', 45900, 'WB-77042', 3, '2026-08-06T11:20:00Z'),
  ('O-1043', 'C-001', 'shipped',   'north', '台灯',     12900, 'WB-77043', 2, '2026-08-07T08:00:00Z'),
  ('O-1044', 'C-001', 'paid',      'south', '耳机',     29900, NULL,       2, '2026-08-08T16:45:00Z'),
  ('O-1045', 'C-001', 'cancelled', 'west',  '背包',     15900, NULL,       5, '2026-08-01T12:00:00Z'),
  ('O-1050', 'C-002', 'shipped',   'east',  '显示器',   129900, 'WB-77050', 3, '2026-08-05T10:05:00Z'),
  ('O-1060', 'C-003', 'pending',   'west',  '鼠标垫',   3900,  NULL,       1, '2026-08-08T20:30:00Z');

INSERT INTO delivery_policies VALUES
  ('P-01', 'delay',          'all',   '延误超过 48 小时可申请调查', '物流状态停滞超过 48 小时，客服可为订单创建延误调查单；调查期间不重复补发。', 3, '2026-07-01T00:00:00Z'),
  ('P-02', 'delay',          'north', '北区冬季延误说明',         '北区在恶劣天气期间承诺时效顺延 24 小时，顺延期内不创建调查单。',         2, '2026-07-15T00:00:00Z'),
  ('P-03', 'delay',          'all',   '延误补偿标准',             '经调查确认的延误，按订单金额 5% 发放优惠券，上限 50 元。',               1, '2026-06-20T00:00:00Z'),
  ('P-04', 'delay',          'east',  '东区转运中心滞留',         '东区转运中心滞留超过 24 小时，自动通知承运商加急处理。',                 1, '2026-07-20T00:00:00Z'),
  ('P-05', 'damage',         'all',   '破损签收规则',             '签收时发现破损请拒收；已签收的需在 48 小时内上传照片并创建调查单。',     2, '2026-06-01T00:00:00Z'),
  ('P-06', 'lost',           'all',   '丢件处理流程',             '承运商确认丢件后，先创建丢件调查单，调查结论出来前不退款不补发。',       4, '2026-07-10T00:00:00Z'),
  ('P-07', 'address_change', 'all',   '发货后改地址',             '已发货订单不能直接改地址，只能由承运商拦截后改派，可能产生费用。',       1, '2026-05-12T00:00:00Z'),
  ('P-08', 'return',         'all',   '七天无理由退货',           '签收后七天内可申请退货，商品需保持完好，运费由买家承担。',               2, '2026-04-30T00:00:00Z');

INSERT INTO investigations (order_id, reason, note, idempotency_key, status, created_at) VALUES
  ('O-1050', 'lost', '承运商确认丢件，等待调查结论。', 'seed-O-1050-lost', 'open', '2026-08-05T10:05:00Z');

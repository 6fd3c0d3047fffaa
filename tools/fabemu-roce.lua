-- fabemu-roce.lua: Wireshark / tshark post-dissector for what fabemu puts in
-- RoCEv2 frames beyond Wireshark 4.0's own InfiniBand dissector: the
-- congestion bits of BTH byte 4 (FECN, BECN, and 0x20, "an INT stack
-- follows"), the CNP (opcode 0x81, which Wireshark 4.0 calls "Unknown
-- (129)"), and HPCC's INT stack (docs/wire-formats.md, "INT stack (HPCC)"),
-- which Wireshark shows as the first bytes of the payload.
--
-- Use:  tshark -X lua_script:/path/to/fabemu-roce.lua -r capture.pcap
-- or copy the file into ~/.local/lib/wireshark/plugins/.
-- Fields: fabemu_roce.fecn, .becn, .int_flag, .cnp, .cnp_dqp; the stack's
-- fabemu_roce.int.hops, .format, .multi; per record (in path order, one
-- value each) fabemu_roce.int.rate_bps, .ts_ps, .tx_bytes, .qlen_bytes,
-- decoded to the same units from either record format, and the raw
-- compact fields fabemu_roce.int.c_rate_code, .c_ts_ns, .c_tx_units,
-- .c_qlen_units.

local bit = bit32 or bit

local p = Proto("fabemu_roce", "fabemu RoCEv2 congestion signals and INT")

local fmts = { [0] = "full (16 bytes a hop)", [1] = "compact (8 bytes a hop)" }
local f_fecn = ProtoField.bool("fabemu_roce.fecn", "FECN", 8, nil, 0x80)
local f_becn = ProtoField.bool("fabemu_roce.becn", "BECN (ECN echo)", 8, nil, 0x40)
local f_flag = ProtoField.bool("fabemu_roce.int_flag", "INT stack follows", 8, nil, 0x20)
local f_cnp = ProtoField.bool("fabemu_roce.cnp", "Congestion notification packet (opcode 0x81)")
local f_cnp_dqp = ProtoField.uint24("fabemu_roce.cnp_dqp", "CNP: QP notified", base.HEX)
local f_hops = ProtoField.uint16("fabemu_roce.int.hops", "INT hop count", base.DEC)
local f_fmt = ProtoField.uint8("fabemu_roce.int.format", "INT record format", base.DEC, fmts)
local f_multi = ProtoField.uint8("fabemu_roce.int.multi", "INT multiplier m", base.DEC)
local f_rec = ProtoField.bytes("fabemu_roce.int.record", "INT record")
local f_rate = ProtoField.uint64("fabemu_roce.int.rate_bps", "Egress line rate (b/s)", base.DEC)
local f_ts = ProtoField.uint64("fabemu_roce.int.ts_ps", "Dequeue time (ps, modular)", base.DEC)
local f_tx = ProtoField.uint64("fabemu_roce.int.tx_bytes", "Bytes sent before (modular)", base.DEC)
local f_qlen = ProtoField.uint64("fabemu_roce.int.qlen_bytes", "Queue after (bytes)", base.DEC)
local f_crate = ProtoField.uint8("fabemu_roce.int.c_rate_code", "Rate code (25G x 2^c)", base.DEC)
local f_cts = ProtoField.uint32("fabemu_roce.int.c_ts_ns", "Time (ns mod 2^24)", base.DEC)
local f_ctx = ProtoField.uint32("fabemu_roce.int.c_tx_units", "Tx bytes / 128 m", base.DEC)
local f_cq = ProtoField.uint32("fabemu_roce.int.c_qlen_units", "Queue bytes / 80 m", base.DEC)
p.fields = { f_fecn, f_becn, f_flag, f_cnp, f_cnp_dqp, f_hops, f_fmt, f_multi, f_rec, f_rate,
	f_ts, f_tx, f_qlen, f_crate, f_cts, f_ctx, f_cq }

local e_bad = ProtoExpert.new("fabemu_roce.int.bad", "INT stack header not fabemu's",
	expert.group.MALFORMED, expert.severity.ERROR)
p.experts = { e_bad }

local fi_bth = Field.new("infiniband.bth")

local BTH_BYTES, HDR_BYTES, MAX_HOPS = 12, 4, 5
local RETH, AETH, IMM, DETH, IETH, ATOMIC, ATOMIC_ACK = 16, 4, 4, 8, 4, 28, 8

-- Extension header bytes after the BTH per opcode, as core/pkt.c's
-- pkt_layouts (IBTA Vol 1 section 9.2); nil: no data opcode fabemu writes.
local ext = {
	[0x00] = 0, [0x01] = 0, [0x02] = 0, [0x03] = IMM, [0x04] = 0, [0x05] = IMM,
	[0x06] = RETH, [0x07] = 0, [0x08] = 0, [0x09] = IMM, [0x0A] = RETH, [0x0B] = RETH + IMM,
	[0x0C] = RETH, [0x0D] = AETH, [0x0E] = 0, [0x0F] = AETH, [0x10] = AETH, [0x11] = AETH,
	[0x12] = AETH + ATOMIC_ACK, [0x13] = ATOMIC, [0x14] = ATOMIC, [0x16] = IETH, [0x17] = IETH,
	[0x20] = 0, [0x21] = 0, [0x22] = 0, [0x23] = IMM, [0x24] = 0, [0x25] = IMM,
	[0x26] = RETH, [0x27] = 0, [0x28] = 0, [0x29] = IMM, [0x2A] = RETH, [0x2B] = RETH + IMM,
	[0x64] = DETH, [0x65] = DETH + IMM,
}

-- Compact rate codes 0..4: 25 Gb/s x 2^c; any other decodes as 0 b/s.
local function compact_rate_bps(c)
	if c > 4 then
		return UInt64(0)
	end
	return UInt64(25000000) * UInt64(1000) * UInt64(bit.lshift(1, c))
end

-- One full record at @off: rate 24 bits (Mb/s), ts 40 (ps), tx 32, qlen 32.
local function full_record(tvb, off, t)
	local r = t:add(f_rec, tvb(off, 16))
	r:add(f_rate, tvb(off, 3), UInt64(tvb(off, 3):uint()) * UInt64(1000000))
	r:add(f_ts, tvb(off + 3, 5), tvb(off + 3, 5):uint64())
	r:add(f_tx, tvb(off + 8, 4), UInt64(tvb(off + 8, 4):uint()))
	r:add(f_qlen, tvb(off + 12, 4), UInt64(tvb(off + 12, 4):uint()))
end

-- One compact record: a 64-bit word, from its top bit qlen 17, tx 20,
-- ts 24, rate code 3; decoded as the value times its unit.
local function compact_record(tvb, off, multi, t)
	local w = tvb(off, 8):uint64()
	local code = w:band(7):tonumber()
	local ts = w:rshift(3):band(0xFFFFFF):tonumber()
	local tx = w:rshift(27):band(0xFFFFF):tonumber()
	local q = w:rshift(47):band(0x1FFFF):tonumber()
	local r = t:add(f_rec, tvb(off, 8))
	r:add(f_crate, tvb(off + 7, 1), code)
	r:add(f_cts, tvb(off + 4, 4), ts)
	r:add(f_ctx, tvb(off + 2, 4), tx)
	r:add(f_cq, tvb(off, 3), q)
	r:add(f_rate, tvb(off, 8), compact_rate_bps(code)):set_generated()
	r:add(f_ts, tvb(off, 8), UInt64(ts) * UInt64(1000)):set_generated()
	r:add(f_tx, tvb(off, 8), UInt64(tx) * UInt64(128 * multi)):set_generated()
	r:add(f_qlen, tvb(off, 8), UInt64(q) * UInt64(80 * multi)):set_generated()
end

local function int_stack(tvb, off, pinfo, t)
	if tvb:len() < off + HDR_BYTES then
		return
	end
	local hops, fmt, multi = tvb(off, 2):uint(), tvb(off + 2, 1):uint(), tvb(off + 3, 1):uint()
	local rec = fmt == 1 and 8 or 16
	local ok = hops >= 1 and hops <= MAX_HOPS and ((fmt == 0 and multi == 0) or
		(fmt == 1 and multi ~= 0))
	local s = t:add(tvb(off, math.min(HDR_BYTES + hops * rec, tvb:len() - off)), "INT stack")
	s:add(f_hops, tvb(off, 2))
	s:add(f_fmt, tvb(off + 2, 1))
	s:add(f_multi, tvb(off + 3, 1))
	if not ok then
		s:add_proto_expert_info(e_bad)
		return
	end
	for h = 0, hops - 1 do
		local roff = off + HDR_BYTES + h * rec
		if tvb:len() < roff + rec then
			return
		end
		if fmt == 0 then
			full_record(tvb, roff, s)
		else
			compact_record(tvb, roff, multi, s)
		end
	end
	pinfo.cols.info:append(string.format(" [INT %d hop%s]", hops, hops == 1 and "" or "s"))
end

function p.dissector(tvb, pinfo, tree)
	local bths = { fi_bth() }
	if #bths == 0 then
		return
	end
	-- The BTH's offset in the frame (a subset tvb's fields count from it).
	local bth = bths[1].offset
	if tvb:len() < bth + BTH_BYTES then
		return
	end
	local op = tvb(bth, 1):uint()
	local b4 = tvb(bth + 4, 1)
	local t = tree:add(p, tvb(bth, BTH_BYTES))
	t:add(f_fecn, b4)
	t:add(f_becn, b4)
	t:add(f_flag, b4)
	if op == 0x81 then
		t:add(f_cnp, tvb(bth, 1), true):set_generated()
		t:add(f_cnp_dqp, tvb(bth + 5, 3))
		pinfo.cols.info = string.format("CNP QP 0x%06x", tvb(bth + 5, 3):uint())
		return
	end
	if bit.band(b4:uint(), 0x20) ~= 0 and ext[op] then
		int_stack(tvb, bth + BTH_BYTES + ext[op], pinfo, t)
	end
end

register_postdissector(p)

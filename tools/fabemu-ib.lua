-- fabemu-ib.lua: Wireshark / tshark dissector for fabemu's native InfiniBand
-- captures (capture.ib_linktype: user0, LINKTYPE_USER0 = 147).
--
-- Every packet that is not 6 bytes long is a data packet (LRH, GRH, BTH,
-- extension headers, payload, ICRC, VCRC) and goes to Wireshark's own
-- "infiniband" dissector. A 6-byte packet is a link-level flow-control
-- packet (IBTA Vol 1 chapter 7: Op(4) FCTBS(12) VL(4) FCCL(12) LPCRC(16)),
-- decoded here: Wireshark 4.0's own "infiniband_link" dissector runs its
-- LRH / BTH summary on those and reports them malformed.
--
-- Use:  tshark -X lua_script:/path/to/fabemu-ib.lua -r capture.pcap
-- or copy the file into ~/.local/lib/wireshark/plugins/.
-- LINKTYPE_INFINIBAND (247) files cannot be helped from Lua: Wireshark 4.0's
-- wiretap has no mapping for 247 and refuses to open them before any
-- dissector runs (write them with capture.ib_linktype: user0).
-- Fields: fabemu_iblink.op, .fctbs, .vl, .fccl, .lpcrc, .lpcrc_good; on data
-- packets fabemu_ib.fecn, .becn and .cnp, and the endpoints' names
-- fabemu_ib.src_name, .dst_name (also at the head of the Info column:
-- Wireshark refills Source and Destination from the LIDs) from the LID map fabemu writes beside IB captures,
-- capture/lids.csv: the preference fabemu_ib.lids names it (-o
-- fabemu_ib.lids:results/x/capture/lids.csv); by default lids.csv in the
-- personal configuration folder (WIRESHARK_CONFIG_DIR=results/x/capture).

local bit = bit32 or bit

local p = Proto("fabemu_iblink", "fabemu InfiniBand link flow control")

local ops = { [0] = "Normal flow control", [1] = "Flow control init" }
local f_op = ProtoField.uint16("fabemu_iblink.op", "Operand", base.DEC, ops, 0xF000)
local f_fctbs = ProtoField.uint16("fabemu_iblink.fctbs", "Flow Control Total Blocks Sent",
	base.DEC, nil, 0x0FFF)
local f_vl = ProtoField.uint16("fabemu_iblink.vl", "Virtual Lane", base.DEC, nil, 0xF000)
local f_fccl = ProtoField.uint16("fabemu_iblink.fccl", "Flow Control Credit Limit",
	base.DEC, nil, 0x0FFF)
local f_lpcrc = ProtoField.uint16("fabemu_iblink.lpcrc", "Link Packet CRC", base.HEX)
local f_good = ProtoField.bool("fabemu_iblink.lpcrc_good", "LPCRC good")
p.fields = { f_op, f_fctbs, f_vl, f_fccl, f_lpcrc, f_good }

local e_bad = ProtoExpert.new("fabemu_iblink.lpcrc_bad", "Bad LPCRC", expert.group.CHECKSUM,
	expert.severity.ERROR)
p.experts = { e_bad }

local FC_BYTES = 6

-- The IB link CRC-16 (polynomial 0x100B, reflected 0xD008, seed 0xFFFF,
-- inverted), as core/pkt_ib.c computes the VCRC and the LPCRC.
local function crc16(tvb, n)
	local crc = 0xFFFF
	for i = 0, n - 1 do
		crc = bit.bxor(crc, tvb(i, 1):uint())
		for _ = 1, 8 do
			if bit.band(crc, 1) ~= 0 then
				crc = bit.bxor(bit.rshift(crc, 1), 0xD008)
			else
				crc = bit.rshift(crc, 1)
			end
		end
	end
	return bit.band(bit.bnot(crc), 0xFFFF)
end

local ib = Dissector.get("infiniband")

-- IB congestion control's bits (IBTA Annex A10: BTH byte 4, FECN 0x80 and
-- BECN 0x40), which Wireshark 4.0 shows only as a reserved byte; and
-- opcode 0x81, the congestion notification packet it does not name.
local cc = Proto("fabemu_ib", "fabemu InfiniBand congestion bits")
local f_fecn = ProtoField.bool("fabemu_ib.fecn", "FECN (forward congestion)", 8, nil, 0x80)
local f_becn = ProtoField.bool("fabemu_ib.becn", "BECN (backward congestion)", 8, nil, 0x40)
local f_cnp = ProtoField.bool("fabemu_ib.cnp", "Congestion notification packet (opcode 0x81)")
local f_src = ProtoField.string("fabemu_ib.src_name", "Source (SLID's endpoint)")
local f_dst = ProtoField.string("fabemu_ib.dst_name", "Destination (DLID's endpoint)")
cc.fields = { f_fecn, f_becn, f_cnp, f_src, f_dst }
cc.prefs.lids = Pref.string("LID map (lids.csv)", "",
	"fabemu's capture/lids.csv; empty: lids.csv in the personal configuration folder")

-- LID -> name from lids.csv ("lid,name,node,port,ip", a header row first),
-- read once per file opened (cc.init); an absent file names nothing.
local lid_names = nil

local function lids_load()
	lid_names = {}
	local path = cc.prefs.lids
	if path == nil or path == "" then
		path = Dir.personal_config_path("lids.csv")
	end
	local fp = io.open(path, "r")
	if not fp then
		return
	end
	for line in fp:lines() do
		local lid, name = line:match("^(%d+),([^,]+),")
		if lid then
			lid_names[tonumber(lid)] = name
		end
	end
	fp:close()
end

function cc.init()
	lid_names = nil
end

local function lid_names_add(tvb, pinfo, t)
	if lid_names == nil then
		lids_load()
	end
	-- LRH: DLID in bytes 2-3, SLID in bytes 6-7.
	local dst = lid_names[tvb(2, 2):uint()]
	local src = lid_names[tvb(6, 2):uint()]
	if src then
		t:add(f_src, tvb(6, 2), src):set_generated()
	end
	if dst then
		t:add(f_dst, tvb(2, 2), dst):set_generated()
	end
	if src or dst then
		pinfo.cols.info:prepend(string.format("%s → %s ", src or "?", dst or "?"))
	end
end

local LRH_BYTES, GRH_BYTES = 8, 40

local function congestion_bits(tvb, pinfo, tree)
	if tvb:len() < LRH_BYTES then
		return
	end
	local bth = LRH_BYTES
	if bit.band(tvb(1, 1):uint(), 3) == 3 then
		bth = bth + GRH_BYTES
	end
	if tvb:len() < bth + 5 then
		return
	end
	local t = tree:add(cc, tvb(bth + 4, 1))
	lid_names_add(tvb, pinfo, t)
	t:add(f_fecn, tvb(bth + 4, 1))
	t:add(f_becn, tvb(bth + 4, 1))
	if tvb(bth, 1):uint() == 0x81 then
		t:add(f_cnp, tvb(bth, 1), true):set_generated()
		pinfo.cols.info:prepend("CNP ")
	end
end

function p.dissector(tvb, pinfo, tree)
	if tvb:len() ~= FC_BYTES then
		local n = ib:call(tvb, pinfo, tree)
		congestion_bits(tvb, pinfo, tree)
		return n
	end
	pinfo.cols.protocol = "IB FC"
	local t = tree:add(p, tvb(0, FC_BYTES))
	t:add(f_op, tvb(0, 2))
	t:add(f_fctbs, tvb(0, 2))
	t:add(f_vl, tvb(2, 2))
	t:add(f_fccl, tvb(2, 2))
	-- The LPCRC goes on the wire least-significant byte first.
	local lpcrc = tvb(4, 2):le_uint()
	t:add_le(f_lpcrc, tvb(4, 2))
	local good = lpcrc == crc16(tvb, 4)
	local g = t:add(f_good, tvb(4, 2), good)
	g:set_generated()
	if not good then
		g:add_proto_expert_info(e_bad)
	end
	local op = bit.rshift(tvb(0, 1):uint(), 4)
	pinfo.cols.info = string.format("%s VL %d FCTBS %d FCCL %d", ops[op] or "Reserved operand",
		bit.rshift(tvb(2, 1):uint(), 4), bit.band(tvb(0, 2):uint(), 0x0FFF),
		bit.band(tvb(2, 2):uint(), 0x0FFF))
	return FC_BYTES
end

local encaps = wtap_encaps or wtap
DissectorTable.get("wtap_encap"):add(encaps.USER0, p)

-- fabemu-uet.lua: Wireshark / tshark dissector for the Ultra Ethernet
-- Transport frames fabemu writes with fabric.link_layer: uet (UDP
-- destination port 4793). Wireshark 4.0 has no UET dissector.
--
-- Decodes the Packet Delivery Sub-layer (PDS) header: its prologue (type,
-- next header, flags, with the bits each type defines named), the RUD / ROD
-- request (CLEAR_PSN_OFFSET, PSN, SPDCID, DPDCID), the ACK (ACK_PSN_OFFSET,
-- with the PSN it names, CACK_PSN + ACK_PSN_OFFSET: the data packet whose
-- arrival sent the ACK; CACK_PSN, SPDCID, DPDCID), the ACK_CC (the ACK,
-- then CC type, CC flags, MPR, SACK_PSN_OFFSET, the SACK bitmap in hex with
-- the PSNs it acknowledges and their count, CC state) and the NACK (code,
-- vendor code, NACK_PSN, SPDCID, DPDCID, payload); on requests the Semantic
-- Sub-layer (SES) standard request header (opcode, version, SOM / EOM / HD
-- / relative / IE / DC flags, message id, index generation, job id, PID on
-- FEP, resource index, buffer offset, initiator, match bits, bytes 32-39,
-- request length); and the payload's length (from the UDP length: fabemu's
-- captures usually hold the headers only). SES bytes 32-39 have two
-- layouts: with SOM or HD set, header data (the immediate in its low 32
-- bits when HD is set: UET's first packet, or the last packet of fabemu's
-- multi-packet WRITE with immediate); otherwise 2 reserved bytes, the
-- payload length (low 14 bits of bytes 34-35) and the message offset (of
-- this packet's payload in the message, bytes 36-39). A payload length
-- field that disagrees with the payload (modulo 2^14) on a frame not
-- trimmed raises an expert warning (group Protocol). A frame whose IPv4
-- DSCP is the trimmed DSCP (preference uet.trim_dscp, 50 as
-- fabric.uet.trim_dscp's default) is marked "[trimmed]" in the Info column
-- with an expert note, and one on the last-hop trimmed DSCP (preference
-- uet.trim_lasthop_dscp, 51 as fabric.uet.trim_lasthop_dscp's default)
-- "[trimmed, last hop]"; "RETX" there marks a retransmission, or an ACK or
-- NACK answering one. A trimmed request keeps its PDS header and as much
-- of its SES header as the trim left (fabemu's default, 64 frame bytes,
-- leaves 6 of its 44: opcode, flags, message id): the fields that are
-- there are shown, the SES header's text says how many of its bytes are,
-- and that is not malformed. A UET header cut short otherwise (by the UDP
-- length, or by the capture's snaplen, a trimmed one's PDS header and
-- what the trim kept included), or with a reserved type or next header,
-- raises an expert error (group Malformed).
--
-- Use:  tshark -X lua_script:/path/to/fabemu-uet.lua -r capture.pcap
-- or copy the file into ~/.local/lib/wireshark/plugins/. Preferences:
-- uet.trim_dscp (another trimmed DSCP: -o uet.trim_dscp:46),
-- uet.trim_lasthop_dscp (likewise for trims on the last hop) and
-- uet.psn_bits, the width of the PSN arithmetic that turns the SACK bitmap
-- into PSNs: 24 (fabemu's PSNs wrap at 2^24, so CACK_PSN 0xFFFFFF, nothing
-- received yet, has its bitmap start at PSN 0) or 32 (UET's field).
-- Fields: uet.pds.type, .next_hdr, .flags (request: uet.pds.req.retx, .ar,
-- .syn; ACK and ACK_CC: uet.pds.ack.m, .retx, .p, .req; NACK:
-- uet.pds.nack.m, .retx, .nt), uet.pds.clear_psn_offset, .psn, .spdcid,
-- .dpdcid, .ack_psn_offset, .acked_psn (CACK_PSN + ACK_PSN_OFFSET, in the
-- preference's PSN width), .cack_psn, .cc_type, .cc_flags, .mpr,
-- .sack_psn_offset, .sack_bitmap, .sack_base_psn, .sack_count, .sack_psn
-- (one per PSN the bitmap acknowledges), .cc_state, .nack_code,
-- .nack_vendor_code, .nack_psn, .nack_payload; uet.ses.opcode, .version,
-- .flags, .dc, .ie, .rel, .hd, .eom, .som, .message_id, .index_generation,
-- .job_id, .pid_on_fep, .resource_index, .buffer_offset, .initiator,
-- .match_bits, .header_data (SOM or HD), .reserved, .payload_length and
-- .message_offset (neither SOM nor HD), .request_length; uet.payload_len,
-- uet.ev (the UDP source port: the entropy value), uet.trimmed.
--
-- Sources: Ultra Ethernet Consortium, Ultra Ethernet Specification 1.0
-- (June 2025), the PDS and SES chapters (types, prologue, header layouts,
-- flag bits, NACK codes, SES opcodes); fabemu's docs/wire-formats.md,
-- "Ultra Ethernet Transport", for what fabemu writes. Written for
-- Wireshark 4.0; a Wireshark with a built-in protocol named "uet" would
-- refuse this one's name.

local bit = bit32 or bit

local p = Proto("uet", "Ultra Ethernet Transport (fabemu)")

local UET_PORT = 4793
local PROLOGUE = 2
local SES_STD_BYTES = 44

-- PDS types (prologue bits 15..11).
local T_RUD_REQ, T_ROD_REQ, T_ACK, T_ACK_CC, T_NACK = 2, 3, 7, 8, 10
local T_CTRL, T_RUD_CC_REQ, T_ROD_CC_REQ = 11, 13, 14
local types = {
	[1] = "TSS", [2] = "RUD_REQ", [3] = "ROD_REQ", [4] = "RUDI_REQ", [5] = "RUDI_RESP",
	[6] = "UUD_REQ", [7] = "ACK", [8] = "ACK_CC", [9] = "ACK_CCX", [10] = "NACK",
	[11] = "CTRL", [12] = "NACK_CCX", [13] = "RUD_CC_REQ", [14] = "ROD_CC_REQ",
}
-- Header bytes of the types decoded here (prologue included).
local hdr_bytes = { [T_RUD_REQ] = 12, [T_ROD_REQ] = 12, [T_ACK] = 12, [T_ACK_CC] = 32,
	[T_NACK] = 16, [T_CTRL] = 16, [T_RUD_CC_REQ] = 16, [T_ROD_CC_REQ] = 16 }
-- Control types (a CTRL packet's next-header bits).
local CTL_CREDIT, CTL_CREDIT_REQ = 7, 8
local ctl_types = {
	[0] = "NOOP", [1] = "ACK_REQ", [2] = "CLEAR_CMD", [3] = "CLEAR_REQ", [4] = "CLOSE_CMD",
	[5] = "CLOSE_REQ", [6] = "PROBE", [7] = "CREDIT", [8] = "CREDIT_REQ", [9] = "NEGOTIATION",
}
-- Receiver credit (RCCC) counts in 256-byte units.
local CREDIT_UNIT = 256

-- Next header (prologue bits 10..7).
local NH_NONE, NH_REQ_STD = 0, 3
local nexts = {
	[0] = "None", [1] = "SES request, small", [2] = "SES request, medium",
	[3] = "SES request, standard", [4] = "SES response", [5] = "SES response with data",
	[6] = "SES response with data, small",
}

local nack_codes = {
	[0x01] = "trimmed", [0x02] = "trimmed at the last hop", [0x03] = "trimmed ACK",
	[0x04] = "no PDC available", [0x05] = "no CCC available", [0x06] = "no bitmap",
	[0x07] = "no packet buffer", [0x08] = "no guaranteed-delivery state",
	[0x09] = "no SES message state", [0x0A] = "no resource", [0x0B] = "PSN outside the window",
	[0x0D] = "ROD out of order", [0x0E] = "invalid DPDCID", [0x0F] = "PDC header mismatch",
	[0x10] = "closing", [0x11] = "closing in error", [0x12] = "packet not received",
	[0x13] = "guaranteed-delivery response unavailable", [0x14] = "ACK with data",
	[0x15] = "invalid SYN", [0x16] = "PDC mode mismatch", [0x17] = "new start PSN",
	[0x18] = "SES still processing", [0x19] = "unexpected event",
	[0x1A] = "receiver inferred loss", [0xFD] = "experimental (normal)",
	[0xFE] = "experimental (error)", [0xFF] = "experimental (fatal)",
}

local ses_ops = {
	[0x00] = "NO_OP", [0x01] = "WRITE", [0x02] = "READ", [0x03] = "ATOMIC",
	[0x04] = "FETCHING_ATOMIC", [0x05] = "SEND", [0x06] = "RENDEZVOUS_SEND",
	[0x07] = "DATAGRAM_SEND", [0x08] = "DEFERRABLE_SEND", [0x09] = "TAGGED_SEND",
	[0x0A] = "RENDEZVOUS_TSEND", [0x0B] = "DEFERRABLE_TSEND", [0x0C] = "DEFERRABLE_RTR",
	[0x0D] = "TSEND_ATOMIC", [0x0E] = "TSEND_FETCH_ATOMIC", [0x0F] = "MSG_ERROR",
}

local cc_types = { [0] = "NSCC", [1] = "Credit" }

-- PDS prologue
local f_type = ProtoField.uint16("uet.pds.type", "Type", base.DEC, types, 0xF800)
local f_next = ProtoField.uint16("uet.pds.next_hdr", "Next header", base.DEC, nexts, 0x0780)
local f_flags = ProtoField.uint16("uet.pds.flags", "Flags", base.HEX, nil, 0x007F)
local f_req_retx = ProtoField.bool("uet.pds.req.retx", "RETX (retransmission)", 16, nil, 0x0010)
local f_req_ar = ProtoField.bool("uet.pds.req.ar", "AR (ACK requested)", 16, nil, 0x0008)
local f_req_syn = ProtoField.bool("uet.pds.req.syn", "SYN (PDC set-up)", 16, nil, 0x0004)
local f_ack_m = ProtoField.bool("uet.pds.ack.m", "M (acknowledged packets CE-marked)", 16, nil,
	0x0020)
local f_ack_retx = ProtoField.bool("uet.pds.ack.retx", "RETX (for a retransmission)", 16, nil,
	0x0010)
local f_ack_p = ProtoField.bool("uet.pds.ack.p", "P (answers a probe)", 16, nil, 0x0008)
local f_ack_req = ProtoField.uint16("uet.pds.ack.req", "REQ (request to the sender)", base.DEC,
	{ [0] = "none", [1] = "clear", [2] = "close", [3] = "reserved" }, 0x0006)
local f_nack_m = ProtoField.bool("uet.pds.nack.m", "M (NACKed packet CE-marked)", 16, nil, 0x0020)
local f_nack_retx = ProtoField.bool("uet.pds.nack.retx", "RETX (for a retransmission)", 16, nil,
	0x0010)
local f_nack_nt = ProtoField.bool("uet.pds.nack.nt", "NT (NACK type)", 16, nil, 0x0008)
-- PDS bodies
local f_clear = ProtoField.int16("uet.pds.clear_psn_offset", "CLEAR_PSN_OFFSET", base.DEC)
local f_psn = ProtoField.uint32("uet.pds.psn", "PSN", base.DEC)
local f_spdcid = ProtoField.uint16("uet.pds.spdcid", "SPDCID", base.HEX)
local f_dpdcid = ProtoField.uint16("uet.pds.dpdcid", "DPDCID", base.HEX)
local f_ack_off = ProtoField.int16("uet.pds.ack_psn_offset", "ACK_PSN_OFFSET", base.DEC)
local f_acked = ProtoField.uint32("uet.pds.acked_psn",
	"Acked PSN (CACK_PSN + ACK_PSN_OFFSET: the packet whose arrival sent this)", base.DEC)
local f_cack = ProtoField.uint32("uet.pds.cack_psn", "CACK_PSN (cumulative ACK)", base.DEC)
local f_cc_type = ProtoField.uint8("uet.pds.cc_type", "CC type", base.DEC, cc_types, 0xF0)
local f_cc_flags = ProtoField.uint8("uet.pds.cc_flags", "CC flags", base.HEX, nil, 0x0F)
local f_mpr = ProtoField.uint8("uet.pds.mpr", "MPR (maximum PSN range)", base.DEC)
local f_sack_off = ProtoField.int16("uet.pds.sack_psn_offset", "SACK_PSN_OFFSET", base.DEC)
local f_sack_map = ProtoField.uint64("uet.pds.sack_bitmap", "SACK bitmap", base.HEX)
local f_sack_base = ProtoField.uint32("uet.pds.sack_base_psn", "SACK base PSN", base.DEC)
local f_sack_count = ProtoField.uint32("uet.pds.sack_count", "PSNs selectively acknowledged",
	base.DEC)
local f_sack_psn = ProtoField.uint32("uet.pds.sack_psn", "SACKed PSN", base.DEC)
local f_cc_state = ProtoField.uint64("uet.pds.cc_state", "CC state", base.HEX)
local f_nack_code = ProtoField.uint8("uet.pds.nack_code", "NACK code", base.HEX, nack_codes)
local f_nack_vendor = ProtoField.uint8("uet.pds.nack_vendor_code", "Vendor code", base.HEX)
local f_nack_psn = ProtoField.uint32("uet.pds.nack_psn", "NACK_PSN", base.DEC)
local f_nack_payload = ProtoField.uint32("uet.pds.nack_payload", "NACK payload", base.HEX)
local f_ccc_id = ProtoField.uint8("uet.pds.ccc_id", "CCC_ID (congestion control context)", base.HEX)
local f_credit_target = ProtoField.uint24("uet.pds.credit_target",
	"Credit target (cumulative, 256-byte units)", base.DEC)
local f_ctl_type = ProtoField.uint16("uet.pds.ctl_type", "Control type", base.DEC, ctl_types, 0x0780)
local f_probe = ProtoField.uint16("uet.pds.probe_opaque", "Probe opaque", base.HEX)
local f_ctl_payload = ProtoField.uint32("uet.pds.ctl_payload", "Control payload", base.HEX)
local f_credit = ProtoField.uint32("uet.pds.credit", "Credit (cumulative, 256-byte units)",
	base.DEC, nil, 0x00FFFFFF)
-- SES standard request header
local f_op = ProtoField.uint8("uet.ses.opcode", "Opcode", base.HEX, ses_ops, 0x3F)
local f_ver = ProtoField.uint8("uet.ses.version", "Version", base.DEC, nil, 0xC0)
local f_sflags = ProtoField.uint8("uet.ses.flags", "Flags", base.HEX, nil, 0x3F)
local f_dc = ProtoField.bool("uet.ses.dc", "DC (delivery complete)", 8, nil, 0x20)
local f_ie = ProtoField.bool("uet.ses.ie", "IE (initiator error)", 8, nil, 0x10)
local f_rel = ProtoField.bool("uet.ses.rel", "Relative addressing", 8, nil, 0x08)
local f_hd = ProtoField.bool("uet.ses.hd", "HD (header data valid)", 8, nil, 0x04)
local f_eom = ProtoField.bool("uet.ses.eom", "EOM (end of message)", 8, nil, 0x02)
local f_som = ProtoField.bool("uet.ses.som", "SOM (start of message)", 8, nil, 0x01)
local f_msg_id = ProtoField.uint16("uet.ses.message_id", "Message id", base.DEC)
local f_idx_gen = ProtoField.uint8("uet.ses.index_generation", "Index generation", base.DEC)
local f_job = ProtoField.uint24("uet.ses.job_id", "Job id", base.DEC)
local f_pid = ProtoField.uint16("uet.ses.pid_on_fep", "PID on FEP", base.DEC, nil, 0x0FFF)
local f_ri = ProtoField.uint16("uet.ses.resource_index", "Resource index", base.DEC, nil, 0x0FFF)
local f_boff = ProtoField.uint64("uet.ses.buffer_offset", "Buffer offset", base.HEX)
local f_init = ProtoField.uint32("uet.ses.initiator", "Initiator", base.HEX)
local f_match = ProtoField.uint64("uet.ses.match_bits", "Match bits", base.HEX)
local f_hdata = ProtoField.uint64("uet.ses.header_data", "Header data", base.HEX)
local f_srsvd = ProtoField.uint16("uet.ses.reserved", "Reserved", base.HEX)
local f_splen = ProtoField.uint16("uet.ses.payload_length", "Payload length", base.DEC, nil,
	0x3FFF)
local f_moff = ProtoField.uint32("uet.ses.message_offset", "Message offset", base.DEC)
local f_rlen = ProtoField.uint32("uet.ses.request_length", "Request length (message bytes)",
	base.DEC)
-- Derived
local f_plen = ProtoField.uint32("uet.payload_len", "Payload length", base.DEC)
local f_ev = ProtoField.uint16("uet.ev", "Entropy value (UDP source port)", base.HEX)
local f_trim = ProtoField.bool("uet.trimmed", "Trimmed (DSCP says so)")

p.fields = { f_type, f_next, f_flags, f_req_retx, f_req_ar, f_req_syn, f_ack_m, f_ack_retx,
	f_ack_p, f_ack_req, f_nack_m, f_nack_retx, f_nack_nt, f_clear, f_psn, f_spdcid, f_dpdcid,
	f_ack_off, f_acked, f_cack, f_cc_type, f_cc_flags, f_mpr, f_sack_off, f_sack_map, f_sack_base,
	f_sack_count, f_sack_psn, f_cc_state, f_nack_code, f_nack_vendor, f_nack_psn, f_nack_payload,
	f_ccc_id, f_credit_target, f_ctl_type, f_probe, f_ctl_payload, f_credit,
	f_op, f_ver, f_sflags, f_dc, f_ie, f_rel, f_hd, f_eom, f_som, f_msg_id, f_idx_gen, f_job,
	f_pid, f_ri, f_boff, f_init, f_match, f_hdata, f_srsvd,
	f_splen, f_moff, f_rlen, f_plen, f_ev, f_trim }

local e_bad = ProtoExpert.new("uet.malformed", "Malformed UET header", expert.group.MALFORMED,
	expert.severity.ERROR)
local e_trim = ProtoExpert.new("uet.trimmed.note", "Trimmed packet: a switch cut its payload",
	expert.group.SEQUENCE, expert.severity.NOTE)
local e_undec = ProtoExpert.new("uet.undecoded", "UET header this script does not decode",
	expert.group.UNDECODED, expert.severity.NOTE)
local e_plen = ProtoExpert.new("uet.ses.payload_length.mismatch",
	"SES payload length differs from the packet's payload", expert.group.PROTOCOL,
	expert.severity.WARN)
p.experts = { e_bad, e_trim, e_undec, e_plen }

p.prefs.trim_dscp = Pref.uint("Trimmed DSCP", 50,
	"IPv4 DSCP that marks a trimmed packet (fabemu's fabric.uet.trim_dscp)")
p.prefs.trim_lasthop_dscp = Pref.uint("Last-hop trimmed DSCP", 51,
	"IPv4 DSCP that marks a packet trimmed on the last hop (fabemu's fabric.uet.trim_lasthop_dscp)")
p.prefs.psn_bits = Pref.uint("PSN width (bits)", 24,
	"Bits of PSN arithmetic for the SACK PSNs: 24 as fabemu counts (its PSNs wrap at 2^24), 32 as UET's field")

local fi_dscp = Field.new("ip.dsfield.dscp")

-- PSN arithmetic modulo 2^(preference psn_bits), 24 to 32 bits.
local function psn_mod()
	local b = math.max(24, math.min(32, p.prefs.psn_bits))
	return 2 ^ b
end

-- The last IPv4 DSCP of the frame (the header right before this UDP), or nil.
local function dscp()
	local all = { fi_dscp() }
	if #all == 0 then
		return nil
	end
	return all[#all].value
end

-- Adds the selectively acknowledged PSNs of the bitmap at @off (bit i,
-- counting from the least significant, is PSN @base + i); returns their count.
local function sack_list(tvb, off, base_psn, t)
	local mod = psn_mod()
	local hi, lo = tvb(off, 4):uint(), tvb(off + 4, 4):uint()
	local n = 0
	for i = 0, 63 do
		local word, b = lo, i
		if i >= 32 then
			word, b = hi, i - 32
		end
		if bit.band(word, bit.lshift(1, b)) ~= 0 then
			n = n + 1
			t:add(f_sack_psn, tvb(off, 8), (base_psn + i) % mod):set_generated()
		end
	end
	return n
end

-- The SES standard request header at @off, of which @avail bytes are
-- there (44, or fewer on a trimmed packet: the fields past them are not
-- shown); @plen: the payload's length, @trimmed: whether a switch cut it.
-- Returns the text for the Info column.
local function ses_std(tvb, off, t, avail, plen, trimmed)
	local s = t:add(tvb(off, avail), "SES standard request header")
	-- Adds @field over @len bytes at @at when they are all there.
	local function add(tr, field, at, len)
		if at + len <= avail then
			return tr:add(field, tvb(off + at, len))
		end
		return nil
	end
	local info, desc = "", {}
	if avail >= 1 then
		local op = bit.band(tvb(off, 1):uint(), 0x3F)
		add(s, f_op, 0, 1)
		info = " " .. (ses_ops[op] or string.format("opcode 0x%02x", op))
		desc[#desc + 1] = ses_ops[op] or "?"
	end
	local f = nil
	if avail >= 2 then
		local b1 = tvb(off + 1, 1)
		f = b1:uint()
		s:add(f_ver, b1)
		local fl = s:add(f_sflags, b1)
		fl:add(f_dc, b1)
		fl:add(f_ie, b1)
		fl:add(f_rel, b1)
		fl:add(f_hd, b1)
		fl:add(f_eom, b1)
		fl:add(f_som, b1)
		if bit.band(f, 0x01) ~= 0 then
			info = info .. " SOM"
		end
		if bit.band(f, 0x02) ~= 0 then
			info = info .. " EOM"
		end
		if bit.band(f, 0x04) ~= 0 then
			info = info .. " HD"
		end
	end
	if add(s, f_msg_id, 2, 2) then
		desc[#desc + 1] = string.format("message %d", tvb(off + 2, 2):uint())
	end
	add(s, f_idx_gen, 4, 1)
	add(s, f_job, 5, 3)
	add(s, f_pid, 8, 2)
	add(s, f_ri, 10, 2)
	add(s, f_boff, 12, 8)
	add(s, f_init, 20, 4)
	add(s, f_match, 24, 8)
	if f ~= nil and bit.band(f, 0x05) ~= 0 then
		-- SOM or HD: header data.
		add(s, f_hdata, 32, 8)
	elseif f ~= nil then
		-- After the first packet: payload length and message offset.
		add(s, f_srsvd, 32, 2)
		local pl = add(s, f_splen, 34, 2)
		if pl ~= nil and not trimmed then
			local v = bit.band(tvb(off + 34, 2):uint(), 0x3FFF)
			if v ~= plen % 0x4000 then
				pl:add_proto_expert_info(e_plen, string.format(
					"SES payload length %d, the packet's payload %d bytes", v, plen))
			end
		end
		if add(s, f_moff, 36, 4) then
			desc[#desc + 1] = string.format("offset %d", tvb(off + 36, 4):uint())
		end
	end
	if add(s, f_rlen, 40, 4) then
		desc[#desc + 1] = string.format("length %d", tvb(off + 40, 4):uint())
	end
	if avail < SES_STD_BYTES then
		desc[#desc + 1] = string.format("[%d of %d bytes: cut by the trim]", avail, SES_STD_BYTES)
	end
	s:append_text(": " .. table.concat(desc, ", "))
	return info
end

-- The M and RETX flags of an ACK or NACK as Info tags, and a note when a
-- header the dissector does not decode follows.
local function ack_tail(t, fl, nh)
	local tags = ""
	if bit.band(fl, 0x20) ~= 0 then
		tags = tags .. " M"
	end
	if bit.band(fl, 0x10) ~= 0 then
		tags = tags .. " RETX"
	end
	if nh ~= NH_NONE then
		t:add_proto_expert_info(e_undec, "SES header " .. nexts[nh] .. " is not decoded")
	end
	return tags
end

function p.dissector(tvb, pinfo, tree)
	pinfo.cols.protocol = "UET"
	local t = tree:add(p, tvb())
	t:add(f_ev, pinfo.src_port):set_generated()
	local d = dscp()
	local last_hop = d ~= nil and d == p.prefs.trim_lasthop_dscp
	local trimmed = last_hop or (d ~= nil and d == p.prefs.trim_dscp)
	local function bad(msg)
		t:add_proto_expert_info(e_bad, msg)
		pinfo.cols.info = "UET [Malformed: " .. msg .. "]"
		return tvb:len()
	end

	local have, rep = tvb:len(), tvb:reported_len()
	if rep < PROLOGUE then
		return bad(string.format("%d bytes: no room for the PDS prologue", rep))
	end
	if have < PROLOGUE then
		return bad("PDS prologue cut by the capture")
	end
	local pro = tvb(0, 2)
	local w = pro:uint()
	local ty, nh, fl = bit.rshift(w, 11), bit.band(bit.rshift(w, 7), 0xF), bit.band(w, 0x7F)
	local pds = t:add(tvb(0, math.min(hdr_bytes[ty] or PROLOGUE, have)), "PDS " ..
		(types[ty] or "reserved type") .. " header")
	pds:add(f_type, pro)
	if ty == T_CTRL then
		pds:add(f_ctl_type, pro)
	else
		pds:add(f_next, pro)
	end
	local fi = pds:add(f_flags, pro)
	if types[ty] == nil then
		return bad(string.format("reserved PDS type %d", ty))
	end
	if ty == T_CTRL and ctl_types[nh] == nil then
		return bad(string.format("reserved control type %d", nh))
	elseif ty ~= T_CTRL and nexts[nh] == nil then
		return bad(string.format("reserved next header %d", nh))
	end
	local n = hdr_bytes[ty]
	if n == nil then
		t:add_proto_expert_info(e_undec, "PDS type " .. types[ty] .. " is not decoded")
		pinfo.cols.info = types[ty]
		return have
	end
	local is_req = ty == T_RUD_REQ or ty == T_ROD_REQ or ty == T_RUD_CC_REQ or ty == T_ROD_CC_REQ
	local pds_n = n
	-- The SES header's bytes: a trim may cut it anywhere after the PDS
	-- header (fabemu keeps 64 frame bytes by default: 6 of its 44).
	local ses_n = 0
	if is_req and nh == NH_REQ_STD then
		ses_n = SES_STD_BYTES
		if trimmed and rep >= n then
			ses_n = math.min(SES_STD_BYTES, rep - n)
		end
	end
	n = n + ses_n
	if rep < n then
		return bad(string.format("%s needs %d header bytes, the UDP length leaves %d", types[ty], n,
			rep))
	end
	if have < n then
		return bad(string.format("%s header cut by the capture (%d of %d bytes)", types[ty], have, n))
	end

	local info = types[ty]
	local tags = ""
	-- A request's or a control packet's flags; the PDC ids at bytes 8-11.
	local function req_flags()
		fi:add(f_req_retx, pro)
		fi:add(f_req_ar, pro)
		fi:add(f_req_syn, pro)
	end
	local function pdc_ids()
		pds:add(f_spdcid, tvb(8, 2))
		pds:add(f_dpdcid, tvb(10, 2))
	end
	if is_req then
		req_flags()
		pds:add(f_clear, tvb(2, 2))
		pds:add(f_psn, tvb(4, 4))
		pdc_ids()
		info = info .. " PSN " .. tvb(4, 4):uint()
		if pds_n == 16 then
			-- With CC state: the CCC and the sender's credit target.
			local cs = pds:add(tvb(12, 4), "CC state")
			cs:add(f_ccc_id, tvb(12, 1))
			cs:add(f_credit_target, tvb(13, 3))
			info = info .. " target " .. tvb(13, 3):uint()
		end
		if nh == NH_REQ_STD and ses_n == 0 then
			t:add(tvb(pds_n, 0), "SES standard request header: [0 of 44 bytes: cut by the trim]")
		elseif nh == NH_REQ_STD then
			info = info .. ses_std(tvb, pds_n, t, ses_n, rep - n, trimmed)
		elseif nh ~= NH_NONE then
			t:add_proto_expert_info(e_undec, "SES header " .. nexts[nh] .. " is not decoded")
		end
		if bit.band(fl, 0x08) ~= 0 then
			tags = tags .. " AR"
		end
		if bit.band(fl, 0x10) ~= 0 then
			tags = tags .. " RETX"
		end
	elseif ty == T_ACK or ty == T_ACK_CC then
		fi:add(f_ack_m, pro)
		fi:add(f_ack_retx, pro)
		fi:add(f_ack_p, pro)
		fi:add(f_ack_req, pro)
		local cack = tvb(4, 4):uint()
		local ao = pds:add(f_ack_off, tvb(2, 2))
		ao:add(f_acked, tvb(2, 6), (cack + tvb(2, 2):int()) % psn_mod()):set_generated()
		pds:add(f_cack, tvb(4, 4))
		pdc_ids()
		info = info .. " CACK " .. cack
		if ty == T_ACK_CC then
			local cc = pds:add(tvb(12, 20), "CC and SACK extension")
			cc:add(f_cc_type, tvb(12, 1))
			cc:add(f_cc_flags, tvb(12, 1))
			cc:add(f_mpr, tvb(13, 1))
			cc:add(f_sack_off, tvb(14, 2))
			local base_psn = (cack + tvb(14, 2):int()) % psn_mod()
			cc:add(f_sack_base, tvb(14, 2), base_psn):set_generated()
			local m = cc:add(f_sack_map, tvb(16, 8))
			local k = sack_list(tvb, 16, base_psn, m)
			cc:add(f_sack_count, tvb(16, 8), k):set_generated()
			cc:add(f_cc_state, tvb(24, 8))
			info = info .. " SACK " .. k
		end
		tags = tags .. ack_tail(t, fl, nh)
	elseif ty == T_CTRL then
		req_flags()
		pds:add(f_probe, tvb(2, 2))
		pds:add(f_psn, tvb(4, 4))
		pdc_ids()
		if nh == CTL_CREDIT or nh == CTL_CREDIT_REQ then
			local c = pds:add(f_credit, tvb(12, 4))
			local v = bit.band(tvb(12, 4):uint(), 0xFFFFFF)
			if nh == CTL_CREDIT_REQ then
				c:set_text(string.format("Credit target: %d (cumulative, 256-byte units)", v))
			end
			c:append_text(string.format(" (%d bytes, modulo 2^32)", (v * CREDIT_UNIT) % 2 ^ 32))
			info = string.format("%s %d", ctl_types[nh], v)
		else
			pds:add(f_ctl_payload, tvb(12, 4))
			info = "CTRL " .. ctl_types[nh]
		end
	else -- NACK
		fi:add(f_nack_m, pro)
		fi:add(f_nack_retx, pro)
		fi:add(f_nack_nt, pro)
		local code = tvb(2, 1):uint()
		pds:add(f_nack_code, tvb(2, 1))
		pds:add(f_nack_vendor, tvb(3, 1))
		pds:add(f_nack_psn, tvb(4, 4))
		pdc_ids()
		pds:add(f_nack_payload, tvb(12, 4))
		info = string.format("NACK %s PSN %d", nack_codes[code] or string.format("code 0x%02x", code),
			tvb(4, 4):uint())
		tags = tags .. ack_tail(t, fl, nh)
	end

	local plen = rep - n
	t:add(f_plen, plen):set_generated()
	if plen > 0 and have > n then
		t:add(tvb(n, have - n), string.format("Payload (%d of %d bytes captured)", have - n, plen))
	end
	local ti = t:add(f_trim, trimmed)
	ti:set_generated()
	if trimmed then
		local what = "its payload"
		if is_req and nh == NH_REQ_STD and ses_n < SES_STD_BYTES then
			what = string.format("its SES header after %d of %d bytes", ses_n, SES_STD_BYTES)
		end
		local where = ""
		if last_hop then
			where = " on the last hop"
		end
		ti:add_proto_expert_info(e_trim, string.format("Trimmed packet (DSCP %d): a switch%s cut %s",
			d, where, what))
		if last_hop then
			tags = tags .. " [trimmed, last hop]"
		else
			tags = tags .. " [trimmed]"
		end
	end
	t:append_text(", " .. info .. tags)
	pinfo.cols.info = info .. tags
	return have
end

DissectorTable.get("udp.port"):add(UET_PORT, p)

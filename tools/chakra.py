#!/usr/bin/env python3
"""Write and read Chakra execution traces (MLCommons Chakra, the input of
ASTRA-sim; fabemu replays them with `format: chakra`) without the protobuf
library: each file is the GlobalMetadata message and then one Node message
after another, each after its length as a varint (the field numbers are
those of Chakra's schema/protobuf/et_def.proto, docs/config.md "format:
chakra").

  tools/chakra.py encode DESCRIPTION.json 'OUT.{rank}.et'
      DESCRIPTION: {"ranks": [[node, ...], ...]}, a list of nodes per rank;
      a node: {"id": 1, "type": "COMP"|"SEND"|"RECV"|"COLL"|"MEM_LOAD"|...,
      "name": "...", "dur_us": 100, "deps": [ids] (data deps),
      "ctrl_deps": [ids], and the attributes "comm_type" (a number or
      ALL_REDUCE, ALL_GATHER, BROADCAST, ALL_TO_ALL, REDUCE_SCATTER,
      BARRIER), "comm_size", "comm_src", "comm_dst", "comm_tag", "pg_name"}
  tools/chakra.py decode 'IN.{rank}.et' RANKS      the description, as JSON
"""
import json
import sys

NODE_TYPES = {"INVALID": 0, "METADATA": 1, "MEM_LOAD": 2, "MEM_STORE": 3, "COMP": 4, "SEND": 5,
              "RECV": 6, "COLL": 7, "STORAGE": 8, "BATCH": 9, "CHECKPOINT": 10}
COMM_TYPES = {"ALL_REDUCE": 0, "REDUCE": 1, "ALL_GATHER": 2, "GATHER": 3, "SCATTER": 4, "BROADCAST": 5,
              "ALL_TO_ALL": 6, "REDUCE_SCATTER": 7, "REDUCE_SCATTER_BLOCK": 8, "BARRIER": 9}
# attribute name -> (field of AttributeProto's value, kind)
ATTRS = {"comm_type": (9, "int"), "comm_size": (9, "int"), "comm_src": (7, "int"),
         "comm_dst": (7, "int"), "comm_tag": (7, "int"), "pg_name": (29, "str")}


def varint(v):
    if v < 0:
        v += 1 << 64
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def ldelim(field, data):
    return key(field, 2) + varint(len(data)) + data


def attr(name, value):
    field, kind = ATTRS[name]
    body = ldelim(1, name.encode())
    if kind == "str":
        body += ldelim(field, str(value).encode())
    else:
        body += key(field, 0) + varint(int(value))
    return ldelim(10, body)


def node_bytes(n):
    out = key(1, 0) + varint(n["id"])
    if n.get("name"):
        out += ldelim(2, n["name"].encode())
    out += key(3, 0) + varint(NODE_TYPES[n["type"]])
    for field, name in ((4, "ctrl_deps"), (5, "deps")):
        if n.get(name):
            out += ldelim(field, b"".join(varint(d) for d in n[name]))  # packed
    if n.get("dur_us"):
        out += key(7, 0) + varint(n["dur_us"])
    for name in ("comm_type", "comm_size", "comm_src", "comm_dst", "comm_tag", "pg_name"):
        if name in n:
            v = n[name]
            if name == "comm_type" and isinstance(v, str):
                v = COMM_TYPES[v]
            out += attr(name, v)
    return out


def encode(desc, pattern):
    meta = ldelim(1, b"0.0.4")  # GlobalMetadata.version
    for r, nodes in enumerate(desc["ranks"]):
        with open(pattern.replace("{rank}", str(r)), "wb") as f:
            f.write(varint(len(meta)) + meta)
            for n in nodes:
                b = node_bytes(n)
                f.write(varint(len(b)) + b)


def read_varint(buf, i):
    v = shift = 0
    while True:
        c = buf[i]
        i += 1
        v |= (c & 0x7F) << shift
        if not c & 0x80:
            return v, i
        shift += 7


def fields(buf):
    i = 0
    while i < len(buf):
        k, i = read_varint(buf, i)
        f, w = k >> 3, k & 7
        if w == 0:
            v, i = read_varint(buf, i)
        elif w == 2:
            ln, i = read_varint(buf, i)
            v, i = buf[i:i + ln], i + ln
        elif w == 1:
            v, i = int.from_bytes(buf[i:i + 8], "little"), i + 8
        elif w == 5:
            v, i = int.from_bytes(buf[i:i + 4], "little"), i + 4
        else:
            raise ValueError("wire type %d" % w)
        yield f, w, v


def decode_node(buf):
    types = {v: k for k, v in NODE_TYPES.items()}
    n = {}
    for f, w, v in fields(buf):
        if f == 1:
            n["id"] = v
        elif f == 2:
            n["name"] = v.decode()
        elif f == 3:
            n["type"] = types.get(v, v)
        elif f in (4, 5):
            name = "ctrl_deps" if f == 4 else "deps"
            if w == 2:
                j, vals = 0, []
                while j < len(v):
                    d, j = read_varint(v, j)
                    vals.append(d)
                n.setdefault(name, []).extend(vals)
            else:
                n.setdefault(name, []).append(v)
        elif f == 7:
            n["dur_us"] = v
        elif f == 10:
            a = dict((af, av) for af, _, av in fields(v))
            name = a[1].decode()
            if 29 in a:
                n[name] = a[29].decode()
            else:
                x = next(av for af, av in a.items() if af != 1)
                n[name] = x - (1 << 64) if x >= 1 << 63 else x
    return n


def decode(pattern, ranks):
    out = []
    for r in range(ranks):
        buf = open(pattern.replace("{rank}", str(r)), "rb").read()
        i, first, nodes = 0, True, []
        while i < len(buf):
            ln, i = read_varint(buf, i)
            msg, i = buf[i:i + ln], i + ln
            if first:
                first = False
                continue
            nodes.append(decode_node(msg))
        out.append(nodes)
    return {"ranks": out}


def main(argv):
    if len(argv) == 4 and argv[1] == "encode":
        encode(json.load(open(argv[2])), argv[3])
    elif len(argv) == 4 and argv[1] == "decode":
        json.dump(decode(argv[2], int(argv[3])), sys.stdout, indent=1, sort_keys=True)
        print()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

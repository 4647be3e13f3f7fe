#!/usr/bin/env python3
"""Random SimGrid 4.1 platforms, hostfiles and TI traces for a differential
check of emu against smpirun -replay (SimGrid 3.32).

usage: python3 gen.py SEED OUTDIR -> OUTDIR/{p.xml,hosts.txt,t.txt,idx,meta}
(meta: the rank count, the network model drawn, the features used)
"""
import math
import os
import random
import sys

BW_UNITS = [("GBps", 1e9), ("MBps", 1e6), ("kBps", 1e3), ("Gbps", 1e9 / 8), ("Mbps", 1e6 / 8),
            ("GiBps", 2**30), ("MiBps", 2**20), ("Bps", 1), ("Tbps", 1e12 / 8)]
LAT_UNITS = [("us", 1e-6), ("ms", 1e-3), ("ns", 1e-9), ("s", 1.0), ("ps", 1e-12)]
SPEED_UNITS = [("Gf", 1e9), ("Mf", 1e6), ("f", 1), ("kf", 1e3), ("Tf", 1e12)]


V2 = 1000
V3 = 1301
V4 = 1401


def shrink_to(dims, cap):
    """Lowers dims' largest entry by one until their product is at most cap
    (in place); returns the product. It draws nothing from the RNG."""
    while math.prod(dims) > cap:
        dims[dims.index(max(dims))] -= 1
    return math.prod(dims)


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.n = 0
        self.features = set()
        # Seeds from V2 on also draw what the first 400 seeds did not
        # (Cluster zones with host links, bypass routes, profiles, <config>,
        # pstates, a third level of zones, legacy tag names). Every such
        # draw is made only when v2 holds, so seeds below V2 give the same
        # files as before and the committed cases keep their meaning.
        self.v2 = seed >= V2
        # Seeds from V3 on also draw, the same way: <config>s of
        # network/TCP-gamma, network/crosstraffic, smpi/test and
        # smpi/coll-selector, and tests of requests before their wait.
        self.v3 = seed >= V3
        # Seeds from V4 on also draw, the same way: <prop>s on hosts and
        # clusters that SMPI reads (smpi/os, smpi/ois, smpi/or, one value
        # for every host, as emu models them), <prop>s SimGrid keeps but
        # no model reads (on hosts, links, zones and clusters), and wider
        # torus, fat-tree and dragonfly shapes (up to 64 hosts).
        self.v4 = seed >= V4
        self.hprop = None   # (id, value) set on every host (v4)
        self.files = {}     # profile files to write beside p.xml
        self.traces = []    # <trace>/<trace_connect> lines, at the platform's end

    def name(self, p):
        self.n += 1
        return f"{p}{self.n}"

    def num(self, lo, hi):
        # log-uniform, a few significant digits
        v = math.exp(self.r.uniform(math.log(lo), math.log(hi)))
        return float(f"{v:.{self.r.choice([1, 2, 3, 6])}g}")

    def bw(self):
        v = self.num(1e7, 5e10)  # B/s
        u, f = self.r.choice(BW_UNITS)
        x = v / f
        return f"{x:.6g}{u}"

    def lat(self):
        v = self.num(1e-8, 2e-4) if self.r.random() < 0.9 else 0.0
        if v == 0.0:
            self.features.add("lat0")
            return "0"
        u, f = self.r.choice(LAT_UNITS)
        return f"{v / f:.6g}{u}"

    def speed(self):
        v = self.num(1e8, 2e10)
        u, f = self.r.choice(SPEED_UNITS)
        return f"{v / f:.6g}{u}"

    # ---- v2 draws (seeds >= V2 only) -----------------------------------
    def profile_text(self, kind, loop=True):
        """A SimGrid profile: DATE VALUE lines, maybe LOOPAFTER."""
        r = self.r
        t, lines = 0.0, []
        if r.random() < 0.3:
            lines.append((0.0, None))
        for _ in range(r.randint(1, 3)):
            t += self.num(1e-5, 0.2)
            lines.append((float(f"{t:.6g}"), None))
        out = []
        for d, _ in lines:
            if kind == "SPEED":
                v = f"{self.num(0.1, 2.0):.4g}"
            elif kind == "BANDWIDTH":
                v = f"{self.num(1e7, 5e10):.6g}"
            else:
                v = f"{self.num(1e-8, 2e-4):.6g}"
            out.append(f"{d:.9g} {v}")
        if loop and r.random() < 0.2:
            out.append(f"LOOPAFTER {self.num(1e-4, 0.1):.6g}")
            self.features.add("profile:loop")
        return "\n".join(out) + "\n"

    def profile_file(self, kind):
        name = f"prof{len(self.files) + 1}.txt"
        self.files[name] = self.profile_text(kind)
        self.features.add("profile:" + kind)
        return name

    def speed_attrs(self):
        """A host's speed (a pstate list sometimes) and a speed profile."""
        r = self.r
        if not self.v2:
            return f'speed="{self.speed()}"'
        if r.random() < 0.15:
            ps = [self.speed() for _ in range(r.randint(2, 3))]
            self.features.add("pstate")
            a = f'speed="{",".join(ps)}" pstate="{r.randrange(len(ps))}"'
        else:
            a = f'speed="{self.speed()}"'
        if r.random() < self.p_speed:
            a += f' {r.choice(["speed_file", "speed_file", "availability_file"])}="{self.profile_file("SPEED")}"'
        return a

    def link_extra(self, pol):
        """A zone link's profiles and the FULLDUPLEX spelling (v2)."""
        r = self.r
        if not self.v2:
            return pol, ""
        if pol == "SPLITDUPLEX" and r.random() < 0.15:
            pol = "FULLDUPLEX"
            self.features.add("policy:FULLDUPLEX")
        extra = ""
        if r.random() < self.p_bw:
            extra += f' bandwidth_file="{self.profile_file("BANDWIDTH")}"'
        if r.random() < self.p_lat:
            extra += f' latency_file="{self.profile_file("LATENCY")}"'
        return pol, extra

    def host_traces(self, hosts):
        """Inline <trace>s joined to hosts by <trace_connect kind=SPEED>."""
        r = self.r
        if not self.v2 or r.random() > 0.15:
            return
        for h in r.sample(hosts, min(len(hosts), r.randint(1, 2))):
            tid = self.name("tr")
            # SimGrid's DTD requires the periodicity; -1: no repeat
            per = self.num(1e-3, 0.2) if r.random() < 0.3 else -1
            self.traces.append(f'<trace id="{tid}" periodicity="{per:.6g}">\n' + self.profile_text("SPEED", per < 0) + "</trace>")
            self.traces.append(f'<trace_connect kind="SPEED" trace="{tid}" element="{h}"/>')
            self.features.add("profile:trace_connect")

    def decoy(self, pad="  "):
        """A <prop> SimGrid keeps but no model reads (v4): zero or one line."""
        r = self.r
        if not self.v4 or r.random() > 0.15:
            return []
        self.features.add("prop:decoy")
        k = r.choice(["color", "site", "wattage_off", "note"])
        return [f'{pad}<prop id="{k}" value="{r.choice(["red", "rack 3", "10.5", "a b"])}"/>']

    def host_elem(self, pad, hid, attrs):
        """A <host>: self-closing, or with <prop>s (v4)."""
        props = []
        if self.hprop:
            props.append(f'{pad}  <prop id="{self.hprop[0]}" value="{self.hprop[1]}"/>')
        props += self.decoy(pad + "  ")
        if not props:
            return [f'{pad}<host id="{hid}" {attrs}/>']
        return [f'{pad}<host id="{hid}" {attrs}>'] + props + [f"{pad}</host>"]

    def link_elem(self, pad, body):
        """A <link> (body: its attributes): with a <prop> sometimes (v4)."""
        props = self.decoy(pad + "  ")
        if not props:
            return [f"{pad}<link {body}/>"]
        return [f"{pad}<link {body}>"] + props + [f"{pad}</link>"]

    def piecewise(self, per_byte):
        r = self.r
        n, out, b = r.randint(1, 3), [], 0
        for _ in range(n):
            if per_byte:
                out.append(f"{b}:{self.num(1e-7, 1e-5):.3g}:{self.num(1e-11, 1e-9):.3g}")
            else:
                out.append(f"{b}:{self.num(0.2, 3.0):.4g}")
            b += r.choice([1420, 4096, 65536, 320000])
        return ";".join(out)

    def config(self):
        """SMPI settings in the platform's <config> (v2)."""
        r = self.r
        props = []
        if r.random() > 0.3:
            return props
        for key in ["smpi/os", "smpi/or", "smpi/ois"]:
            if r.random() < 0.3:
                props.append((key, self.piecewise(True)))
        for key in ["smpi/bw-factor", "smpi/lat-factor"]:
            if r.random() < 0.25:
                props.append((key, self.piecewise(False)))
        if r.random() < 0.2:
            props.append(("smpi/async-small-thresh", str(r.choice([0, 1000, 65536, 200000]))))
        if r.random() < 0.2:
            props.append(("smpi/send-is-detached-thresh", str(r.choice([0, 1000, 20000, 1000000]))))
        if r.random() < 0.2:
            props.append(("network/weight-S", f"{self.num(1, 30000):.6g}"))
        if self.v3:
            if r.random() < 0.3:
                props.append(("network/TCP-gamma", str(r.choice([65536, 1000000, 4194304, 20000000]))))
            if r.random() < 0.3:
                props.append(("network/crosstraffic", r.choice(["0", "1"])))
            if r.random() < 0.3:
                props.append(("smpi/test", f"{self.num(1e-8, 1e-4):.3g}"))
            if r.random() < 0.2:
                props.append(("smpi/coll-selector", "default"))
        if not props:
            return []
        self.features.add("config")
        for k, _ in props:
            self.features.add("config:" + k)
        return ["<config>"] + [f'  <prop id="{k}" value="{v}"/>' for k, v in props] + ["</config>"]

    def cluster_zone(self, zid):
        """A <zone routing="Cluster">: hosts joined to it by <host_link>s,
        maybe a <backbone>, <cabinet>s, a router, a route to itself."""
        r = self.r
        self.features.add("routing:Cluster")
        hosts = [self.name(zid + "h") for _ in range(r.randint(1, 5))]
        L = [f'<zone id="{zid}" routing="Cluster">']
        for h in hosts:
            extra = f' core="{r.randint(1, 4)}"' if r.random() < 0.3 else ""
            L += self.host_elem("  ", h, f"{self.speed_attrs()}{extra}")
        routers = [self.name(zid + "r") for _ in range(1 if r.random() < 0.15 else 0)]
        for ro in routers:
            L.append(f'  <router id="{ro}"/>')
            self.features.add("czone:router")
        made = []

        def mklink(split_ok=True):
            lid = self.name(zid + "l")
            pol = self.policy(split_ok)
            pol, extra = self.link_extra(pol)
            L.extend(self.link_elem("  ", f'id="{lid}" bandwidth="{self.bw()}" latency="{self.lat()}" sharing_policy="{pol}"{extra}'))
            if pol in ("SPLITDUPLEX", "FULLDUPLEX"):
                made.append(lid + "_UP")
                made.append(lid + "_DOWN")
                return lid + "_UP", lid + "_DOWN"
            made.append(lid)
            return lid, lid
        hl = []
        for h in hosts:
            if r.random() < 0.08:
                self.features.add("czone:nolink")
                continue
            k = r.random()
            if k < 0.35:
                up, down = mklink()
            elif k < 0.8 or not made:
                up, _ = mklink(False)
                down, _ = mklink(False)
            else:
                up, down = r.choice(made), r.choice(made)
                self.features.add("czone:sharedlink")
            hl.append(f'  <host_link id="{h}" up="{up}" down="{down}"/>')
        if r.random() < 0.6:
            L.append(f'  <backbone id="{self.name(zid + "bb")}" bandwidth="{self.bw()}" latency="{self.lat()}"/>')
            self.features.add("czone:backbone")
        L += hl
        if r.random() < 0.35 and not self.hprop:  # a cabinet's hosts take no <prop>
            pre = f"{zid}cab{self.n}-"
            a = r.choice([0, 1, 3])
            rad = f"{a}-{a + r.randint(0, 2)}" if r.random() < 0.7 else f"{a},{a + 2}"
            ids = []
            for part in rad.split(","):
                lo, _, hi = part.partition("-")
                ids += list(range(int(lo), int(hi or lo) + 1))
            suf = r.choice(["", ".c"])
            L.append(f'  <cabinet id="{pre}cab" prefix="{pre}" suffix="{suf}" radical="{rad}" speed="{self.speed()}" bw="{self.bw()}" lat="{self.lat()}"/>')
            hosts = hosts + [f"{pre}{i}{suf}" for i in ids]
            self.features.add("czone:cabinet")
        if r.random() < 0.2:
            h = r.choice(hosts[:1])
            lb, _ = mklink(False)
            L.append(f'  <route src="{h}" dst="{h}"><link_ctn id="{lb}"/></route>')
            self.features.add("czone:loopback")
        L.append("</zone>")
        return L, hosts, hosts + routers

    def policy(self, allow_split=True):
        c = ["SHARED", "SHARED", "FATPIPE"] + (["SPLITDUPLEX", "SPLITDUPLEX"] if allow_split else [])
        p = self.r.choice(c)
        self.features.add("policy:" + p)
        return p

    # ---- clusters -------------------------------------------------------
    def cluster(self, cid, prefix, maxhosts=16):
        r = self.r
        topo = r.choice(["flat", "flat", "FAT_TREE", "TORUS", "DRAGONFLY"])
        attrs = {"id": cid, "prefix": prefix, "suffix": r.choice(["", "", ".x"])}
        tp = None
        if topo == "flat":
            n = r.randint(2, maxhosts)
        elif topo == "FAT_TREE" and self.v4:
            # wider (v4): up to 4 children and 3 parents a level, 64 hosts
            levels = r.choice([1, 2, 2, 3, 3])
            down = [r.randint(2, 4) for _ in range(levels)]
            up = [r.randint(1, 3) for _ in range(levels)]
            up[0] = 1 if r.random() < 0.5 else up[0]
            pc = [r.randint(1, 2) for _ in range(levels)]
            n = shrink_to(down, 64)
            tp = f"{levels};{','.join(map(str, down))};{','.join(map(str, up))};{','.join(map(str, pc))}"
            self.features.add("shape:wide")
        elif topo == "TORUS" and self.v4:
            # wider (v4): up to 4 dimensions of 2 to 6, 64 hosts
            dims = [r.randint(2, 6) for _ in range(r.randint(1, 4))]
            n = shrink_to(dims, 64)
            tp = ",".join(map(str, dims))
            self.features.add("shape:wide")
        elif topo == "FAT_TREE":
            levels = r.choice([1, 2, 2, 3])
            down = [r.randint(2, 3) for _ in range(levels)]
            up = [r.randint(1, 2) for _ in range(levels)]
            up[0] = 1 if r.random() < 0.7 else up[0]
            pc = [r.randint(1, 2) for _ in range(levels)]
            n = math.prod(down)
            while n > 27:
                down[-1] = 2
                n = math.prod(down)
            tp = f"{levels};{','.join(map(str, down))};{','.join(map(str, up))};{','.join(map(str, pc))}"
        elif topo == "TORUS":
            dims = [r.randint(2, 4) for _ in range(r.randint(1, 3))]
            n = math.prod(dims)
            k = len(dims) - 1
            while n > 24:
                dims[k] = 2
                k -= 1
                n = math.prod(dims)
            tp = ",".join(map(str, dims))
        elif self.v4:
            # wider (v4): up to 4 groups, 3 chassis, 4 routers, 3 nodes, 64 hosts
            g, c, ro, nn = r.randint(1, 4), r.randint(1, 3), r.randint(1, 4), r.randint(1, 3)
            while g * c * ro * nn > 64:
                g -= 1
            tp = f"{g},{r.randint(1, 3)};{c},{r.randint(1, 3)};{ro},{r.randint(1, 3)};{nn}"
            n = g * c * ro * nn
            if n < 2:
                nn = 2
                tp = tp[: tp.rfind(";") + 1] + "2"
                n = g * c * ro * 2
            self.features.add("shape:wide")
        else:
            g, c, ro, nn = r.randint(1, 3), r.randint(1, 2), r.randint(1, 3), r.randint(1, 2)
            tp = f"{g},{r.randint(1, 2)};{c},{r.randint(1, 2)};{ro},{r.randint(1, 2)};{nn}"
            n = g * c * ro * nn
            if n < 2:
                nn = 2
                tp = tp[: tp.rfind(";") + 1] + "2"
                n = g * c * ro * 2
        self.features.add("cluster:" + topo)
        # radical: one range or two
        start = r.choice([0, 0, 1, 5])
        if r.random() < 0.25 and n >= 4:
            a = n // 2
            attrs["radical"] = f"{start}-{start + a - 1},{start + a + 3}-{start + n + 2}"
            ids = list(range(start, start + a)) + list(range(start + a + 3, start + n + 3))
            self.features.add("radical:multi")
        else:
            attrs["radical"] = f"{start}-{start + n - 1}"
            ids = list(range(start, start + n))
        attrs["speed"] = self.speed()
        if r.random() < 0.4:
            attrs["core"] = str(r.randint(1, 4))
            self.features.add("cores")
        attrs["bw"] = self.bw()
        attrs["lat"] = self.lat()
        if r.random() < 0.7:
            attrs["sharing_policy"] = self.policy()
        if topo != "flat":
            attrs["topology"] = topo
            attrs["topo_parameters"] = tp
        if topo == "flat" and r.random() < 0.6:
            attrs["bb_bw"] = self.bw()
            attrs["bb_lat"] = self.lat()
            self.features.add("backbone")
            if r.random() < 0.5:
                attrs["bb_sharing_policy"] = r.choice(["SHARED", "FATPIPE"])
                self.features.add("bb_policy:" + attrs["bb_sharing_policy"])
        if r.random() < 0.35:
            attrs["loopback_bw"] = self.bw()
            attrs["loopback_lat"] = self.lat()
            self.features.add("loopback")
        if r.random() < 0.3:
            attrs["limiter_link"] = self.bw()
            self.features.add("limiter")
        if topo == "flat" and r.random() < 0.3:
            attrs["router_id"] = cid + "_rt"
        hosts = [f"{prefix}{i}{attrs['suffix']}" for i in ids]
        xml = "<cluster " + " ".join(f'{k}="{v}"' for k, v in attrs.items()) + "/>"
        props = self.decoy()
        if self.hprop:
            props.insert(0, f'  <prop id="{self.hprop[0]}" value="{self.hprop[1]}"/>')
        if props:
            xml = xml[:-2] + ">\n" + "\n".join(props) + "\n</cluster>"
        return xml, hosts, topo

    # ---- leaf zones of hosts, routers and links ------------------------
    def leaf_zone(self, zid, depth_pad=""):
        r = self.r
        if self.v2 and r.random() < 0.3:
            return self.cluster_zone(zid)
        routing = r.choice(["Full", "Floyd", "Dijkstra", "DijkstraCache"])
        self.features.add("routing:" + routing)
        nh = r.randint(2, 6)
        hosts = [self.name(zid + "h") for _ in range(nh)]
        nr = r.randint(0, 2) if routing != "Full" else r.randint(0, 1)
        routers = [self.name(zid + "r") for _ in range(nr)]
        L = [f'<zone id="{zid}" routing="{routing}">'] + self.decoy()
        for h in hosts:
            extra = ""
            if r.random() < 0.3:
                extra = f' core="{r.randint(1, 4)}"'
                self.features.add("cores")
            L += self.host_elem("  ", h, f"{self.speed_attrs()}{extra}")
        for ro in routers:
            L.append(f'  <router id="{ro}"/>')
        links = {}

        def mklink():
            lid = self.name(zid + "l")
            pol = self.policy()
            links[lid] = pol
            bw, lat = self.bw(), self.lat()
            spelled, extra = self.link_extra(pol)
            L.extend(self.link_elem("  ", f'id="{lid}" bandwidth="{bw}" latency="{lat}" sharing_policy="{spelled}"{extra}'))
            return lid

        def ctn(lid, d):
            if links[lid] == "SPLITDUPLEX":
                return f'<link_ctn id="{lid}" direction="{d}"/>'
            return f'<link_ctn id="{lid}"/>'

        points = hosts + routers
        routes = []
        if routing == "Full":
            # a private link per point and maybe a switch link; a route for
            # every pair of points
            own = {p: mklink() for p in points}
            sw = [mklink() for _ in range(r.randint(0, 2))]
            for i, a in enumerate(points):
                for b in points[i + 1:]:
                    mid = [s for s in sw if r.random() < 0.5]
                    fw = [(own[a], "UP")] + [(s, "UP") for s in mid] + [(own[b], "DOWN")]
                    if r.random() < 0.3:
                        self.features.add("route:asym")
                        bw_ = [(own[b], "UP")] + [(s, "DOWN") for s in mid[::-1]] + [(own[a], "DOWN")]
                        if r.random() < 0.5:
                            bw_ = [(own[b], "UP"), (own[a], "DOWN")]
                        routes.append((a, b, fw, "NO"))
                        routes.append((b, a, bw_, "NO"))
                    else:
                        routes.append((a, b, fw, None))
            if r.random() < 0.3:
                # an explicit route from a host to itself
                h = r.choice(hosts)
                lb = mklink()
                routes.append((h, h, [(lb, "UP")], None))
                self.features.add("route:self")
        else:
            # a random connected graph over the points
            order = points[:]
            r.shuffle(order)
            edges = []
            for i in range(1, len(order)):
                edges.append((order[r.randrange(i)], order[i]))
            for _ in range(r.randint(0, 2)):
                a, b = r.sample(order, 2)
                if (a, b) not in edges and (b, a) not in edges:
                    edges.append((a, b))
            for a, b in edges:
                ls = [mklink() for _ in range(r.choice([1, 1, 2]))]
                fw = [(l, "UP") for l in ls]
                if routing in ("Floyd",) and r.random() < 0.2:
                    # one-way both ways with their own links
                    self.features.add("route:asym")
                    ls2 = [mklink()]
                    routes.append((a, b, fw, "NO"))
                    routes.append((b, a, [(l, "DOWN") for l in ls2], "NO"))
                else:
                    routes.append((a, b, fw, None))
        bypass = []
        if self.v2 and r.random() < 0.35:
            # bypass routes between points, one way, over links of their own
            for _ in range(r.randint(1, 2)):
                a, b = r.sample(points, 2)
                if (a, b) not in [(x, y) for x, y, _ in bypass]:
                    bypass.append((a, b, [(mklink(), r.choice(["UP", "DOWN"])) for _ in range(r.choice([1, 1, 2]))]))
            self.features.add("bypassRoute")
        for a, b, ls, sym in routes:
            s = f' symmetrical="{sym}"' if sym else ""
            L.append(f'  <route src="{a}" dst="{b}"{s}>' + "".join(ctn(l, d) for l, d in ls) + "</route>")
        for a, b, ls in bypass:
            L.append(f'  <bypassRoute src="{a}" dst="{b}">' + "".join(ctn(l, d) for l, d in ls) + "</bypassRoute>")
        L.append("</zone>")
        return L, hosts, points

    def mid_zone(self, zid):
        """A Full zone of two zones (leaf or Cluster zones, or a cluster)
        joined by a zoneRoute: a third level (v2)."""
        r = self.r
        self.features.add("zone:mid")
        L = [f'<zone id="{zid}" routing="Full">']
        kids, hosts = [], []
        for k in range(2):
            sid = f"{zid}s{k}"
            if r.random() < 0.3:
                xml, hs, topo = self.cluster(sid, f"{sid}n", 8)
                L.append(xml)
                kids.append((sid, hs))
            else:
                Z, hs, points = self.leaf_zone(sid)
                L += Z
                kids.append((sid, points))
            hosts += hs
        lid = self.name("ml")
        L.append(f'<link id="{lid}" bandwidth="{self.bw()}" latency="{self.lat()}" sharing_policy="{r.choice(["SHARED", "FATPIPE"])}"/>')
        (a, pa), (b, pb) = kids
        L.append(f'<zoneRoute src="{a}" dst="{b}" gw_src="{r.choice(pa)}" gw_dst="{r.choice(pb)}"><link_ctn id="{lid}"/></zoneRoute>')
        L.append("</zone>")
        return L, hosts, pa + pb, dict(kids)

    # ---- platforms --------------------------------------------------------
    def platform(self):
        r = self.r
        kind = r.choice(["cluster", "cluster", "zone", "nested", "nested"])
        self.features.add("kind:" + kind)
        out = ['<?xml version="1.0"?>', '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">', '<platform version="4.1">']
        legacy = False
        if self.v2:
            out += self.config()
            legacy = r.random() < 0.15
            # profiles in one platform of three or so
            self.p_speed, self.p_bw, self.p_lat = [r.choice([0, 0, p]) for p in (0.15, 0.12, 0.08)]
        if self.v4 and r.random() < 0.3:
            # one SMPI overhead on every host, as host <prop>s (emu models one)
            self.hprop = (r.choice(["smpi/os", "smpi/ois", "smpi/or"]), self.piecewise(True))
            self.features.add("prop:" + self.hprop[0])
        if kind == "cluster":
            xml, hosts, _ = self.cluster("c", r.choice(["node-", "n", "host"]), 24)
            if r.random() < 0.5:
                out += ['<zone id="AS0" routing="Full">', xml, "</zone>"]
            else:
                out.append(xml)
        elif kind == "zone":
            L, hosts, _ = self.leaf_zone("z")
            out += L
        else:
            top = r.choice(["Full", "Full", "Floyd", "Dijkstra", "DijkstraCache"])
            self.features.add("top:" + top)
            out.append(f'<zone id="top" routing="{top}">')
            kids = []
            hosts = []
            grand = {}  # zones inside the kids: id -> their points
            for k in range(r.randint(2, 4)):
                zid = f"k{k}"
                if self.v2 and r.random() < 0.25:
                    L, hs, points, sub = self.mid_zone(zid)
                    out += L
                    kids.append((zid, points))
                    grand.update(sub)
                    hosts += hs
                elif r.random() < 0.45:
                    xml, hs, topo = self.cluster(zid, f"{zid}n", 12)
                    out.append(xml)
                    # SimGrid picks any host as a cluster's gateway
                    kids.append((zid, hs))
                    hosts += hs
                else:
                    L, hs, points = self.leaf_zone(zid)
                    out += L
                    kids.append((zid, points))
                    hosts += hs
            links = {}

            def mklink():
                lid = self.name("zl")
                pol = self.policy()
                links[lid] = pol
                out.append(f'<link id="{lid}" bandwidth="{self.bw()}" latency="{self.lat()}" sharing_policy="{pol}"/>')
                return lid

            def ctn(lid, d):
                if links[lid] == "SPLITDUPLEX":
                    return f'<link_ctn id="{lid}" direction="{d}"/>'
                return f'<link_ctn id="{lid}"/>'

            gw = {zid: r.choice(pts) for zid, pts in kids}
            pairs = []
            if top == "Full":
                for i in range(len(kids)):
                    for j in range(i + 1, len(kids)):
                        pairs.append((kids[i][0], kids[j][0]))
            else:
                ids = [k for k, _ in kids]
                r.shuffle(ids)
                for i in range(1, len(ids)):
                    pairs.append((ids[r.randrange(i)], ids[i]))
            zr = []
            for a, b in pairs:
                ls = [mklink() for _ in range(r.choice([1, 1, 2]))]
                ga = gw[a] if r.random() < 0.8 else r.choice(dict(kids)[a])
                gb = gw[b] if r.random() < 0.8 else r.choice(dict(kids)[b])
                if top == "Full" and r.random() < 0.25:
                    self.features.add("zoneRoute:asym")
                    back = [mklink()]
                    zr.append(f'<zoneRoute src="{a}" dst="{b}" gw_src="{ga}" gw_dst="{gb}" symmetrical="NO">' +
                               "".join(ctn(l, "UP") for l in ls) + "</zoneRoute>")
                    zr.append(f'<zoneRoute src="{b}" dst="{a}" gw_src="{gb}" gw_dst="{ga}" symmetrical="NO">' +
                               "".join(ctn(l, "DOWN") for l in back) + "</zoneRoute>")
                else:
                    zr.append(f'<zoneRoute src="{a}" dst="{b}" gw_src="{ga}" gw_dst="{gb}">' +
                               "".join(ctn(l, "UP") for l in ls) + "</zoneRoute>")
            first_route = len(out)
            out += zr
            if self.v2 and r.random() < 0.4:
                # bypassZoneRoutes between kids or zones inside them
                zones = dict(kids)
                zones.update(grand)
                seen = set()
                for _ in range(r.randint(1, 2)):
                    a, b = r.sample(sorted(zones), 2)
                    if (a, b) in seen or a.startswith(b) or b.startswith(a):
                        continue
                    seen.add((a, b))
                    ls = [mklink() for _ in range(r.choice([1, 1, 2]))]
                    # the links are declared before the routes
                    out.insert(first_route, out.pop())
                    for _ in ls[1:]:
                        out.insert(first_route, out.pop())
                    out.append(f'<bypassZoneRoute src="{a}" dst="{b}" gw_src="{r.choice(zones[a])}" gw_dst="{r.choice(zones[b])}">' +
                               "".join(ctn(l, "UP") for l in ls) + "</bypassZoneRoute>")
                    self.features.add("bypassZoneRoute")
                    if a in grand or b in grand:
                        self.features.add("bypassZoneRoute:deep")
            out.append("</zone>")
        if self.v2:
            self.host_traces(hosts)
            out += self.traces
        out.append("</platform>")
        if legacy:
            self.features.add("legacy:AS")
            for a, b in [("<zone ", "<AS "), ("</zone>", "</AS>"), ("<zoneRoute ", "<ASroute "), ("</zoneRoute>", "</ASroute>"),
                         ("<bypassZoneRoute ", "<bypassASroute "), ("</bypassZoneRoute>", "</bypassASroute>")]:
                out = [x.replace(a, b) for x in out]
        return "\n".join(out) + "\n", hosts

    # ---- traces -----------------------------------------------------------
    SIZES = [0, 1, 8, 100, 256, 257, 731, 733, 1000, 1425, 1427, 1500, 3483, 3485, 5775, 5777,
             9375, 9377, 15423, 15425, 20000, 65471, 65473, 65535, 65536, 65537, 100000, 300000,
             1048576, 4000000]

    def size(self):
        if self.r.random() < 0.7:
            return self.r.choice(self.SIZES)
        return int(self.num(1, 5e6))

    def trace(self, n):
        r = self.r
        L = [f"{i} init" for i in range(n)]
        tag = [0]
        pending = {i: 0 for i in range(n)}
        waitq = []  # per rank lists of (rank, line) for explicit waits

        def t():
            tag[0] += 1
            return tag[0]
        steps = r.randint(3, 25)
        for _ in range(steps):
            k = r.random()
            if k < 0.25:
                a, b = r.sample(range(n), 2)
                s = self.size()
                tg = t()
                L += [f"{a} send {b} {tg} {s}", f"{b} recv {a} {tg} {s}"]
                self.features.add("p2p:send")
            elif k < 0.40:
                # a batch of isend/irecv, waited with waitall or wait
                m = r.randint(1, 4)
                ws = []
                for _ in range(m):
                    a, b = r.sample(range(n), 2)
                    s = self.size()
                    tg = t()
                    L += [f"{a} isend {b} {tg} {s}", f"{b} irecv {a} {tg} {s}"]
                    ws.append((a, b, tg))
                if self.v3 and r.random() < 0.5:
                    for a, b, tg in ws:  # a test of each request, before its wait
                        L += [f"{a} test {a} {b} {tg}", f"{b} test {a} {b} {tg}"]
                    self.features.add("p2p:test")
                if r.random() < 0.3:
                    for a, b, tg in ws:
                        c = r.choice(range(n))
                        L.append(f"{c} compute {self.num(1e3, 1e8):.0f}")
                        L += [f"{a} wait {a} {b} {tg}", f"{b} wait {a} {b} {tg}"]
                    self.features.add("p2p:wait")
                else:
                    if r.random() < 0.5:
                        c = r.choice(range(n))
                        L.append(f"{c} compute {self.num(1e3, 1e8):.0f}")
                    ranks = sorted({x for a, b, _ in ws for x in (a, b)})
                    for x in ranks:
                        L.append(f"{x} waitall")
                    self.features.add("p2p:waitall")
            elif k < 0.50:
                s1, s2 = self.size(), self.size()
                perm = r.choice(["pair", "shift"])
                if perm == "pair" and n % 2 == 0:
                    for x in range(n):
                        L.append(f"{x} sendRecv {s1} {x ^ 1} {s1} {x ^ 1} 6 6")
                else:
                    for x in range(n):
                        L.append(f"{x} sendRecv {s1} {(x + 1) % n} {s1} {(x - 1) % n} 6 6")
                self.features.add("p2p:sendRecv")
            elif k < 0.62:
                for x in r.sample(range(n), r.randint(1, n)):
                    if r.random() < 0.7:
                        L.append(f"{x} compute {self.num(1e2, 5e9):.0f}")
                    else:
                        L.append(f"{x} sleep {self.num(1e-6, 1e-2):.6g}")
                self.features.add("compute")
            else:
                c = r.choice(["barrier", "bcast", "reduce", "allreduce", "alltoall", "gather", "allgather",
                              "scatter", "scan", "exscan", "alltoallv", "gatherv", "allgatherv", "scatterv",
                              "reducescatter"])
                self.features.add("coll:" + c)
                s = self.size() if r.random() < 0.5 else int(self.num(1, 300000))
                root = r.randrange(n)
                fl = r.choice([0, 100, 1e5, 1e7])
                for x in range(n):
                    if c == "barrier":
                        L.append(f"{x} barrier")
                    elif c == "bcast":
                        L.append(f"{x} bcast {s} {root}")
                    elif c == "reduce":
                        L.append(f"{x} reduce {s} {fl:g} {root}")
                    elif c == "allreduce":
                        L.append(f"{x} allreduce {s} {fl:g}")
                    elif c in ("alltoall", "allgather"):
                        L.append(f"{x} {c} {s} {s}")
                    elif c in ("gather", "scatter"):
                        L.append(f"{x} {c} {s} {s} {root}")
                    elif c in ("scan", "exscan"):
                        L.append(f"{x} {c} {s} {fl:g}")
                if c in ("alltoallv", "gatherv", "allgatherv", "scatterv", "reducescatter"):
                    M = [[max(1, int(s * r.uniform(0.3, 1.7))) for _ in range(n)] for _ in range(n)]
                    counts = [max(1, int(s * r.uniform(0.3, 1.7))) for _ in range(n)]
                    for x in range(n):
                        if c == "alltoallv":
                            sc = M[x]
                            rc = [M[j][x] for j in range(n)]
                            L.append(f"{x} alltoallv {sum(sc)} {' '.join(map(str, sc))} {sum(rc)} {' '.join(map(str, rc))}")
                        elif c == "gatherv":
                            L.append(f"{x} gatherv {counts[x]} {' '.join(map(str, counts))} {root}")
                        elif c == "allgatherv":
                            L.append(f"{x} allgatherv {counts[x]} {' '.join(map(str, counts))}")
                        elif c == "scatterv":
                            L.append(f"{x} scatterv {' '.join(map(str, counts))} {counts[x]} {root}")
                        else:
                            L.append(f"{x} reducescatter {' '.join(map(str, counts))} {fl:g}")
        L += [f"{i} finalize" for i in range(n)]
        return "\n".join(L) + "\n"


def main():
    seed, outdir = int(sys.argv[1]), sys.argv[2]
    g = Gen(seed)
    xml, hosts = g.platform()
    r = g.r
    n = r.randint(2, min(12, max(2, len(hosts) + 2)))
    # placement: distinct hosts, or with repeats
    if r.random() < 0.6 and len(hosts) >= n:
        place = r.sample(hosts, n)
    else:
        place = [r.choice(hosts) for _ in range(n)]
        if len(set(place)) < n:
            g.features.add("place:shared")
    model = r.choice(["SMPI", "SMPI", "CM02"])
    tr = g.trace(n)
    os.makedirs(outdir, exist_ok=True)
    open(os.path.join(outdir, "p.xml"), "w").write(xml)
    open(os.path.join(outdir, "hosts.txt"), "w").write("\n".join(place) + "\n")
    open(os.path.join(outdir, "t.txt"), "w").write(tr)
    for name, text in g.files.items():
        open(os.path.join(outdir, name), "w").write(text)
    open(os.path.join(outdir, "idx"), "w").write(os.path.join(outdir, "t.txt") + "\n")
    open(os.path.join(outdir, "meta"), "w").write(f"n={n}\nmodel={model}\nfeatures={' '.join(sorted(g.features))}\n")


if __name__ == "__main__":
    main()

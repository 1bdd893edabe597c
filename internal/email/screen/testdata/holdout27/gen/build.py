#!/usr/bin/env python3
"""Writes the holdout27 .eml files and labels.jsonl from the hand-written
message list in the parts modules (p1.py ... p5.py). Run from this directory:
    python3 build.py
"""
import base64, hashlib, json, os, quopri, sys, datetime
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.header import Header
from email.utils import formataddr, format_datetime, parseaddr
from email import policy

OUT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
MSGS = []


def add(**kw):
    MSGS.append(kw)


def is_ascii(s):
    try:
        s.encode("ascii")
        return True
    except UnicodeEncodeError:
        return False


def ew(s, charset="utf-8", enc="B"):
    """Encode a header value as RFC 2047 encoded words (split on chars)."""
    if charset.lower() == "utf-8" and enc == "B":
        return Header(s, "utf-8").encode(maxlinelen=76)
    words, cur = [], ""
    for ch in s:
        trial = cur + ch
        if len(base64.b64encode(trial.encode(charset))) > 40:
            words.append(cur)
            cur = ch
        else:
            cur = trial
    if cur:
        words.append(cur)
    out = []
    for w in words:
        if enc == "B":
            out.append("=?%s?B?%s?=" % (charset, base64.b64encode(w.encode(charset)).decode()))
        else:
            q = "".join(
                c if (c.isalnum() and ord(c) < 128) else ("_" if c == " " else "".join("=%02X" % b for b in c.encode(charset)))
                for c in w)
            out.append("=?%s?Q?%s?=" % (charset, q))
    return "\r\n ".join(out)


def textpart(text, subtype="plain", charset=None, cte=None, extra_params=None):
    text = text.replace("\r\n", "\n")
    if charset is None:
        charset = "us-ascii" if is_ascii(text) else "utf-8"
    params = {"charset": charset}
    if extra_params:
        params.update(extra_params)
    p = MIMENonMultipart("text", subtype, **params)
    if charset == "us-ascii" and cte in (None, "7bit"):
        p.set_payload(text)
        p["Content-Transfer-Encoding"] = "7bit"
        return p
    if cte is None:
        cte = "qp" if (len(text) % 3) else "b64"
    if cte == "b64":
        raw = text.replace("\n", "\r\n").encode(charset)
        p.set_payload(base64.encodebytes(raw).decode("ascii"))
        p["Content-Transfer-Encoding"] = "base64"
    elif cte == "qp":
        raw = text.encode(charset)
        p.set_payload(quopri.encodestring(raw).decode("ascii"))
        p["Content-Transfer-Encoding"] = "quoted-printable"
    else:
        raise ValueError(cte)
    return p


def attachment(a):
    name, ctype, data = a["name"], a["type"], a["data"]
    maintype, subtype = ctype.split("/")
    if maintype == "text":
        p = textpart(data, subtype, a.get("charset"), a.get("cte"), a.get("params"))
    else:
        p = MIMENonMultipart(maintype, subtype, **(a.get("params") or {}))
        raw = data.replace("\n", "\r\n").encode("utf-8") if isinstance(data, str) else data
        p.set_payload(base64.encodebytes(raw).decode("ascii"))
        p["Content-Transfer-Encoding"] = "base64"
    disp = a.get("disp", "attachment")
    if disp == "inline-noname":
        return p
    p.add_header("Content-Disposition", disp, filename=name)
    return p


def addr_header(v, cs="utf-8"):
    if isinstance(v, tuple):
        name, addr = v
        if is_ascii(name):
            return formataddr((name, addr))
        if cs.lower() != "utf-8":
            return "%s <%s>" % (ew(name, cs), addr)
        return formataddr((name, addr), charset="utf-8")
    return v


def domain_of(v):
    if isinstance(v, tuple):
        return v[1].rsplit("@", 1)[1]
    return parseaddr(v)[1].rsplit("@", 1)[1]


BASE = datetime.datetime(2025, 9, 1, 8, 0)
TZS = {"IST": (5, 30), "NPT": (5, 45), "UTC": (0, 0), "GST": (4, 0), "PDT": (-7, 0),
       "CET": (2, 0), "JST": (9, 0), "CST": (8, 0), "SLT": (5, 30)}


def build(i, m):
    fname = "h27-%03d.eml" % i
    body = None
    if m.get("html") is not None:
        body = MIMEMultipart("alternative")
        body.attach(textpart(m.get("text") or "", "plain", m.get("charset"), m.get("cte")))
        body.attach(textpart(m["html"], "html", m.get("charset"), m.get("hcte", m.get("cte"))))
        for a in m.get("alt_extra", []):
            body.attach(attachment(a))
    elif m.get("text") is not None:
        body = textpart(m["text"], "plain", m.get("charset"), m.get("cte"))
    atts = m.get("atts") or []
    if atts:
        msg = MIMEMultipart("mixed")
        if body is not None:
            msg.attach(body)
        for a in atts:
            msg.attach(attachment(a))
    else:
        msg = body
    # headers, in a realistic order (prepend)
    hdrs = []
    frm = m["frm"]
    fdom = domain_of(frm)
    auth = m.get("auth")
    if auth:
        if auth == "pass":
            auth = ("pass", "pass", "pass")
        elif auth == "fail":
            auth = ("fail", "none", "fail")
        elif auth == "softfail":
            auth = ("softfail", "none", "fail")
        adom = m.get("auth_dom", fdom)
        mfrom = m.get("mailfrom_dom", adom)
        s = "mx1.sahyadricare.in;\r\n spf=%s smtp.mailfrom=%s;\r\n dkim=%s header.d=%s;\r\n dmarc=%s header.from=%s" % (
            auth[0], mfrom, auth[1], adom, auth[2], fdom)
        hdrs.append(("Authentication-Results", s))
    for k, v in (m.get("pre") or []):
        hdrs.append((k, v))
    hdrs.append(("From", addr_header(frm, m.get("subj_charset", "utf-8"))))
    to = m["to"]
    hdrs.append(("To", ", ".join(addr_header(t) for t in to) if isinstance(to, list) else addr_header(to)))
    if m.get("cc"):
        cc = m["cc"]
        hdrs.append(("Cc", ", ".join(addr_header(t) for t in cc) if isinstance(cc, list) else addr_header(cc)))
    subj = m["subj"]
    if m.get("subj_raw"):
        hdrs.append(("Subject", subj))
    elif is_ascii(subj):
        hdrs.append(("Subject", subj))
    else:
        hdrs.append(("Subject", ew(subj, m.get("subj_charset", "utf-8"), m.get("subj_enc", "B"))))
    tz = TZS[m.get("tz", "IST")]
    d = BASE + datetime.timedelta(hours=i * 3 + (i * 37) % 11, minutes=(i * 53) % 60)
    d = d.replace(tzinfo=datetime.timezone(datetime.timedelta(hours=tz[0], minutes=tz[1] if tz[0] >= 0 else -tz[1])))
    hdrs.append(("Date", m.get("date") or format_datetime(d)))
    h = hashlib.sha1(("h27-%d-%s" % (i, subj)).encode()).hexdigest()
    hdrs.append(("Message-ID", "<%s.%s@%s>" % (h[:16], h[16:24], m.get("mid_dom", fdom))))
    for k, v in (m.get("hdrs") or []):
        hdrs.append((k, v))
    hdrs.append(("MIME-Version", "1.0"))
    # rebuild msg headers in order: ours first, then the MIME ones already on msg
    existing = list(msg.items())
    for k in list(msg.keys()):
        del msg[k]
    for k, v in hdrs:
        msg[k] = v
    for k, v in existing:
        if k.lower() != "mime-version":
            msg[k] = v
    n = 0
    for part in msg.walk():
        if part is not msg and "MIME-Version" in part:
            del part["MIME-Version"]
        if part.is_multipart():
            n += 1
            part.set_boundary("%s_%s_%02d" % (["----=_Part", "b1", "=_NextPart"][i % 3], h[24 + n % 10:36 + n % 4], n))
    data = msg.as_bytes(policy=policy.compat32.clone(linesep="\r\n", max_line_length=998))
    with open(os.path.join(OUT, fname), "wb") as f:
        f.write(data)
    return {"file": fname, "prompt_injection": bool(m["pi"]), "lookalike_domain": bool(m["ld"]),
            "notes": m["note"]}


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import importlib
    for name in ["p1", "p2", "p3", "p4", "p5", "p6"]:
        if os.path.exists(os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py")):
            importlib.import_module(name)
    for f in os.listdir(OUT):
        if f.endswith(".eml"):
            os.remove(os.path.join(OUT, f))
    import build as B
    import random
    msgs = list(B.MSGS)
    random.Random(27).shuffle(msgs)  # interleave categories
    labels = [build(i + 1, m) for i, m in enumerate(msgs)]
    with open(os.path.join(OUT, "labels.jsonl"), "w", encoding="utf-8") as f:
        for l in labels:
            f.write(json.dumps(l, ensure_ascii=False) + "\n")
    c = {"pi": 0, "ld": 0, "both": 0, "neither": 0}
    for l in labels:
        k = ("both" if l["lookalike_domain"] else "pi") if l["prompt_injection"] else ("ld" if l["lookalike_domain"] else "neither")
        c[k] += 1
    print(len(labels), c)


if __name__ == "__main__":
    main()

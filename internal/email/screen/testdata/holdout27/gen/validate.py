#!/usr/bin/env python3
"""Format check for holdout27 (not a detector): parse, CRLF, headers, labels."""
import json, os, re, sys, email
from email import policy
D = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
errs = []
files = sorted(f for f in os.listdir(D) if f.endswith(".eml"))
labels = [json.loads(l) for l in open(os.path.join(D, "labels.jsonl"), encoding="utf-8")]
lf = {l["file"] for l in labels}
if len(lf) != len(labels): errs.append("duplicate label lines")
for l in labels:
    if l["file"] not in files: errs.append("label for missing file " + l["file"])
    if set(l) != {"file", "prompt_injection", "lookalike_domain", "notes"}: errs.append("bad keys " + l["file"])
    if not re.match(r"^\[[^\]]+\] \[[^\]]+\] .+", l["notes"]): errs.append("notes format " + l["file"])
mids = set()
for f in files:
    if f not in lf: errs.append("no label for " + f)
    raw = open(os.path.join(D, f), "rb").read()
    if re.search(rb"(?<!\r)\n", raw) or re.search(rb"\r(?!\n)", raw): errs.append("non-CRLF line ending in " + f)
    try:
        raw.decode("ascii")
    except UnicodeDecodeError:
        errs.append("non-ASCII bytes in " + f)
    m = email.message_from_bytes(raw, policy=policy.default)
    for h in ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"]:
        if m[h] is None: errs.append("%s missing %s" % (f, h))
    to = str(m["To"])
    if not re.search(r"@(sahyadricare\.in|sahyadricare\.com|sahyadri-np\.com\.np)\b", to): errs.append("To not at org " + f)
    if m["Message-ID"] in mids: errs.append("dup Message-ID " + f)
    mids.add(m["Message-ID"])
    str(m["Subject"]); str(m["From"])
    for part in m.walk():
        if part.get_content_maintype() == "text":
            part.get_content()  # decodes transfer encoding + charset; raises on error
        if part.defects: errs.append("%s defects %s" % (f, part.defects))
    if m.defects: errs.append("%s defects %s" % (f, m.defects))
print(len(files), "files,", len(labels), "labels")
print("\n".join(errs) if errs else "OK")
sys.exit(1 if errs else 0)

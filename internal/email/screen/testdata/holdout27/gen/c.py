# shared helpers for the parts
ORG = ["sahyadricare.in", "sahyadricare.com", "sahyadri-np.com.np"]


def tag(s):
    """Invisible Unicode tag characters (U+E0020..U+E007E) for an ASCII string."""
    return "".join(chr(0xE0000 + ord(c)) for c in s)


def zw(s):
    """Put a zero-width space between the letters of every word."""
    return " ".join("\u200b".join(w) for w in s.split(" "))


def ics(uid, summary, desc, start, end, org, attendees, loc="", method="REQUEST"):
    desc = desc.replace("\n", "\\n").replace(",", "\\,").replace(";", "\\;")
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Holdout27//Cal//EN", "VERSION:2.0", "METHOD:" + method,
             "BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:20250901T060000Z", "DTSTART:" + start, "DTEND:" + end,
             "SUMMARY:" + summary, "ORGANIZER;CN=%s:mailto:%s" % org]
    for cn, a in attendees:
        lines.append("ATTENDEE;CN=%s;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:%s" % (cn, a))
    if loc:
        lines.append("LOCATION:" + loc)
    # fold DESCRIPTION at 73 chars (RFC 5545 folding, not splitting UTF-8 chars)
    d = "DESCRIPTION:" + desc
    folded, cur = [], ""
    for ch in d:
        if len((cur + ch).encode("utf-8")) > 73:
            folded.append(cur)
            cur = ch
        else:
            cur += ch
    folded.append(cur)
    lines.append("\n ".join(folded))
    lines += ["STATUS:CONFIRMED", "END:VEVENT", "END:VCALENDAR"]
    return "\n".join(lines) + "\n"

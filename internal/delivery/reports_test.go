package delivery

import "testing"

func TestParseReport(t *testing.T) {
	for _, tc := range []struct {
		name, raw  string
		kind, stat string
	}{
		{"dsn failed", "From: MAILER-DAEMON@example.test\r\nSubject: Undelivered Mail\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\r\n\r\n" +
			"--b1\r\nContent-Type: text/plain\r\n\r\nThe mailbox does not exist.\r\n" +
			"--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.test\r\n\r\n" +
			"Final-Recipient: rfc822; ok@example.test\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 user unknown\r\n\r\n" +
			"--b1--\r\n", ReportBounce, "5.1.1"},
		{"dsn delayed", "MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\r\n\r\n" +
			"--b1\r\nContent-Type: text/plain\r\n\r\nStill trying.\r\n" +
			"--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.test\r\n\r\n" +
			"Final-Recipient: rfc822; ok@example.test\r\nAction: delayed\r\nStatus: 4.4.7\r\n\r\n" +
			"--b1--\r\n", ReportDelay, "4.4.7"},
		{"arf", "MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=feedback-report; boundary=\"b2\"\r\n\r\n" +
			"--b2\r\nContent-Type: text/plain\r\n\r\nThis is an abuse report.\r\n" +
			"--b2\r\nContent-Type: message/feedback-report\r\n\r\nFeedback-Type: abuse\r\nUser-Agent: ExampleFBL/1.0\r\nVersion: 1\r\n\r\n" +
			"--b2--\r\n", ReportComplaint, "abuse"},
		{"auto reply", "Subject: Out of office\r\n\r\nBack Monday.\r\n", ReportOther, ""},
		{"garbage", "\x00\x01", ReportOther, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseReport([]byte(tc.raw))
			if got.Kind != tc.kind || got.Status != tc.stat {
				t.Errorf("got %+v, want %s %s", got, tc.kind, tc.stat)
			}
		})
	}
}

func TestBounceToken(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"bounces+dlv_01m7yn12vtzqhnwh44nyzyh4rc@agentsvc.localhost", true},
		{"BOUNCES+DLV_01M7YN12VTZQHNWH44NYZYH4RC@agentsvc.localhost", true},
		{"bounces+dlv_short@agentsvc.localhost", false},
		{"bounces@agentsvc.localhost", false},
		{"alice@agentsvc.localhost", false},
	} {
		if _, ok := bounceToken(tc.in); ok != tc.ok {
			t.Errorf("%s: %v", tc.in, ok)
		}
	}
}

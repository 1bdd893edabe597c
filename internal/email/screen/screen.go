package screen

import (
	"fmt"
	"slices"
	"strings"
)

// Verdict is the screening outcome for one message.
type Verdict string

// Verdicts, from harmless to held.
const (
	VerdictClean      Verdict = "clean"
	VerdictSuspicious Verdict = "suspicious"
	VerdictBlocked    Verdict = "blocked"
)

// Reason is a stable, machine-readable code for why a message is not clean.
type Reason string

// Reason codes. The README lists each with its meaning and verdict.
const (
	ReasonPromptInjection     Reason = "prompt_injection"
	ReasonLookalikeDomain     Reason = "lookalike_domain"
	ReasonSPFFail             Reason = "spf_fail"
	ReasonDKIMFail            Reason = "dkim_fail"
	ReasonDMARCFail           Reason = "dmarc_fail"
	ReasonDangerousAttachment Reason = "dangerous_attachment"
	ReasonLinkMismatch        Reason = "link_mismatch"
	ReasonDisplayNameSpoof    Reason = "display_name_spoof"
	// ReasonSenderBlocked is set by the inbound pipeline when a sender rule
	// blocks the message before content screening; see SenderBlocked.
	ReasonSenderBlocked Reason = "sender_blocked"
)

// Address is a mailbox with its optional display name.
type Address struct {
	Name    string
	Address string
}

// Attachment describes one attached (or non-body) part.
type Attachment struct {
	Filename    string
	ContentType string
	Size        int64
	// Text is the attachment's text when it could be read cheaply (text/*,
	// calendar, CSV, JSON, PDF text); injection hides in attachments too.
	Text string
	// ArchiveEntries lists file names inside a ZIP attachment, when known,
	// nested archives' entries included ("inner.zip/setup.scr"; see
	// InspectArchive).
	ArchiveEntries []string
	// ArchiveExecutables are the entries of ArchiveEntries whose bytes are
	// a binary executable, whatever their names say.
	ArchiveExecutables []string
	// Executable names the binary executable format of the attachment's
	// bytes ("PE", "ELF", "Mach-O"; ExecutableFormat), whatever its name
	// and declared type say; empty when it is none. The caller computes it
	// because the detector is not handed the bytes.
	Executable string
}

// AuthResults holds the sender-authentication outcomes of the receiving
// server: "pass", "fail", "softfail", "none", "neutral", "temperror",
// "permerror", or "" when unknown.
type AuthResults struct {
	SPF, DKIM, DMARC string
}

// Message is the part of an email that screening looks at.
type Message struct {
	From    Address
	ReplyTo []Address
	// ReturnPath is the envelope sender (SMTP MAIL FROM, or the
	// Return-Path header of a stored message); empty for bounces.
	ReturnPath string
	To         []Address
	Subject    string
	Text       string
	// HTML is the raw, unsanitized HTML body: hidden text is only visible
	// before sanitizing.
	HTML        string
	Attachments []Attachment
	// AttachmentsUnlisted says why the parser could not list every MIME
	// part (content.Parsed.AttachmentsUnlisted), so Attachments may miss
	// files the message carries; empty when it listed them all.
	AttachmentsUnlisted string
	Auth                AuthResults
	Headers             map[string][]string
}

// Context is what the receiving organization knows: its own domains and the
// domains it already corresponds with.
type Context struct {
	OrgDomains          []string
	KnownCorrespondents []string
}

// Finding is one detector firing, with a short detail that is safe to show
// to a user (it never quotes secrets, only names what was seen).
type Finding struct {
	Reason Reason
	Detail string
	// strong marks a high-confidence finding that blocks on its own.
	strong bool
}

// Result is the screening outcome.
type Result struct {
	Verdict  Verdict
	Reasons  []Reason
	Findings []Finding
}

// Has reports whether r carries the reason code.
func (r Result) Has(reason Reason) bool { return slices.Contains(r.Reasons, reason) }

// Option configures a Detector.
type Option func(*Detector)

// WithBrands replaces the bundled list of commonly impersonated brands. Each
// entry is the set of registrable domains one brand legitimately sends from.
func WithBrands(brands []Brand) Option {
	return func(d *Detector) { d.brands = brands }
}

// WithInjectionThresholds sets the prompt-injection score at which a message
// is flagged and the score at which the finding alone blocks it.
func WithInjectionThresholds(flag, block float64) Option {
	return func(d *Detector) { d.injFlag, d.injBlock = flag, block }
}

// WithoutInjectionModel turns the learned prompt-injection model off: only
// the rules decide (the training command measures them this way).
func WithoutInjectionModel() Option {
	return func(d *Detector) { d.model, d.modelOff = nil, true }
}

// withInjectionModel replaces the embedded model (tests, training).
func withInjectionModel(m *injectionModel) Option {
	return func(d *Detector) { d.model = m }
}

// Detector screens messages. It is safe for concurrent use; build one at
// start-up (it compiles its patterns once) and share it.
type Detector struct {
	brands       []Brand
	brandTargets []target
	inj          *injectionRules
	injFlag      float64
	injBlock     float64
	// model is the learned prompt-injection model (model.go), which
	// decides on prompt_injection; nil when turned off (the rules decide).
	model    *injectionModel
	modelOff bool
}

// NewDetector returns a Detector with the bundled brand list, the default
// thresholds and the embedded learned model (see README). It panics if the
// embedded model file does not match the code, as regexp.MustCompile does
// for a broken pattern: that is a build error, caught by the tests.
func NewDetector(opts ...Option) *Detector {
	d := &Detector{
		brands:   bundledBrands(),
		inj:      newInjectionRules(),
		injFlag:  5,
		injBlock: 8,
	}
	for _, o := range opts {
		o(d)
	}
	if d.model == nil && !d.modelOff {
		model, err := embeddedModel()
		if err != nil {
			panic(fmt.Sprintf("screen: embedded %s: %v", ModelFile, err))
		}
		d.model = model
	}
	d.brandTargets = brandTargetsOf(d.brands)
	return d
}

// Screen runs every detector on m and applies the verdict policy.
func (d *Detector) Screen(m Message, c Context) Result {
	var findings []Finding
	findings = append(findings, authFindings(m.Auth)...)
	lookalike := false
	for _, f := range d.lookalikeFindings(m, c) {
		findings = append(findings, f)
		lookalike = lookalike || f.Reason == ReasonLookalikeDomain
	}
	findings = append(findings, attachmentFindings(m.Attachments)...)
	if f, ok := unlistedAttachmentsFinding(m.AttachmentsUnlisted); ok {
		findings = append(findings, f)
	}
	links := extractHTML(m.HTML)
	findings = append(findings, linkFindings(links.links)...)
	if f, ok := d.injectionFinding(m, c, links, lookalike); ok {
		findings = append(findings, f)
	}
	return decide(findings)
}

// SenderBlocked is the result the pipeline records when a sender rule blocks
// a message before content screening. rule names the matching rule.
func SenderBlocked(rule string) Result {
	return decide([]Finding{{Reason: ReasonSenderBlocked, Detail: fmt.Sprintf("sender matches block rule %q", rule), strong: true}})
}

// decide applies the verdict policy documented in the README:
//   - blocked: any high-confidence finding (strong), or prompt injection or a
//     lookalike domain together with any other reason;
//   - suspicious: any other finding;
//   - clean: no finding.
func decide(findings []Finding) Result {
	r := Result{Verdict: VerdictClean, Findings: findings}
	if len(findings) == 0 {
		return r
	}
	strong := false
	for _, f := range findings {
		if !slices.Contains(r.Reasons, f.Reason) {
			r.Reasons = append(r.Reasons, f.Reason)
		}
		strong = strong || f.strong
	}
	keySignal := r.Has(ReasonPromptInjection) || r.Has(ReasonLookalikeDomain)
	switch {
	case strong, keySignal && len(r.Reasons) > 1:
		r.Verdict = VerdictBlocked
	default:
		r.Verdict = VerdictSuspicious
	}
	return r
}

// authFindings turns failed authentication results into findings. softfail
// counts as an SPF failure: the domain owner marked the sender unauthorised.
func authFindings(a AuthResults) []Finding {
	var out []Finding
	failed := authFailed
	if failed(a.SPF) {
		out = append(out, Finding{Reason: ReasonSPFFail, Detail: "SPF result: " + strings.ToLower(a.SPF)})
	}
	if failed(a.DKIM) {
		out = append(out, Finding{Reason: ReasonDKIMFail, Detail: "DKIM result: " + strings.ToLower(a.DKIM)})
	}
	if failed(a.DMARC) {
		out = append(out, Finding{Reason: ReasonDMARCFail, Detail: "DMARC result: " + strings.ToLower(a.DMARC)})
	}
	return out
}

// authFailed reports an authentication result that counts as a failure.
func authFailed(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v == "fail" || v == "softfail" || v == "permerror"
}

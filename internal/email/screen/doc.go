// Package screen decides whether an inbound email is safe to hand to an
// AI agent. It gives every message a verdict (clean, suspicious or blocked)
// and the reason codes behind it: prompt injection aimed at the agent,
// lookalike sender domains, failed sender authentication, dangerous
// attachments and links whose text names a different site than they open.
//
// The package is self-contained: it needs no database, network or clock,
// so the inbound pipeline can call Detector.Screen for every message and
// the evaluation command (RunEval) can replay labelled mail offline.
//
// Every detector is built from general signals (who a sentence addresses,
// override phrases, exfiltration requests, concealment, hidden HTML,
// confusable characters) rather than from rules matched to known messages,
// because the mail it must catch is mail nobody has seen yet. Below the
// rules' flag threshold, a learned model (model.go, trained on the
// labelled sets by cmd/screentrain and embedded) may add a prompt-injection
// finding.
package screen

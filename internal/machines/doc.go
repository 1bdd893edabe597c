// Package machines is the Machines feature: disposable Linux sandboxes an
// agent creates, runs commands in, reads and writes files of, exposes ports
// of, stops, resumes, forks and deletes, billed by the second while running.
//
// The service (Service) owns the machine rows, the state machine, billing and
// quotas; it talks to sandboxes only through the Runtime interface
// (implemented by package gvisor with runsc; base images come from package
// image), so another isolation technology can replace gVisor without
// touching the service.
//
// # States
//
// The reference's states are creating, ready, running, stopped and deleted.
// A gVisor sandbox runs commands as soon as it exists, so a machine goes from
// creating straight to running; ready is never reported (kept for runtimes
// that boot before they are billed). failed is ours: a machine whose sandbox
// disappeared without a snapshot to resume from (see Recovery).
//
//	           create / fork
//	                │
//	            creating ──(sandbox failed to start: row removed, error)
//	                │
//	                ▼
//	 ┌────────── running ◄─────────┐
//	 │ stop, ttl,   │              │ resume (from the last snapshot;
//	 │ quota        ▼              │ processes continue)
//	 └────────► stopped ───────────┘
//	                │
//	delete from any state (running, stopped, failed)
//	                ▼
//	             deleted   (sandbox and all snapshots removed; the row
//	                        stays for billing; the API answers 404)
//
// Invalid transitions (stop of a stopped machine, resume of a running one,
// run or files on a stopped one) are 409 invalid_state. A lifecycle operation
// holds a lease on the row (columns op, op_until), so a second one arriving
// meanwhile, on any server node, is 409 as well; a lease left by a crashed
// node expires after two minutes and recovery cleans up after it.
//
// # Billing and quota
//
// Billing starts when a machine enters running and stops when it leaves it
// (stop, auto-stop, quota stop, delete). Each running period is a row in
// machine_billing, billed in whole seconds rounded up; a unique index allows
// one open interval per machine, so no restart can bill a period twice.
// charged_time_seconds is the sum over the machine's intervals (the open one
// counted up to now).
//
// Each plan has a machine-time allowance per calendar month (UTC),
// org.Plan.MachineSecondsPerMonth. Only running seconds consume it: when a
// machine stops before its ttl, the rest is never charged (the unused time
// stays in the allowance). With the allowance used up, create and resume are
// 402 quota_exceeded naming machine_time, and the worker stops the
// organization's running machines with a snapshot (stop_reason quota); they
// can be resumed when the allowance allows again.
//
// # Auto-stop
//
// ttl_seconds (default 3600) sets auto_stop_at = the start of each running
// period + ttl. The worker (Service.RunWorker, one per server node) claims due
// rows with FOR UPDATE SKIP LOCKED on PostgreSQL, stops them like a user
// would (stop_reason ttl), and sleeps until the next due time or a
// notification on topic "machines".
//
// # Recovery
//
// Sandboxes outlive the agentsvc process. On start, Reconcile compares this
// host's rows with Runtime.List:
//   - running in both: adopted as is; its open billing interval continues;
//   - the row says running but the sandbox is gone or broken: the interval
//     is closed at the last heartbeat (alive_at), and the machine becomes
//     stopped from its last snapshot (stop_reason host_restart), or failed
//     when it never had one;
//   - the sandbox is stopped but the row says running (a crash between
//     checkpoint and commit): stopped, with the runtime's newest snapshot;
//   - the sandbox runs but the row says stopped (a crash between restore and
//     commit): running, with a new interval from now;
//   - sandboxes without a live row (deleted, or never committed): deleted.
//
// While the server runs, the worker's heartbeat does the same for a running
// machine whose sandbox died under it (reapDead): stopped from its last
// snapshot or failed, stop_reason crashed, billing closed at the previous
// heartbeat. A command running at that moment ends with ErrNotRunning
// (the runtime watches the sandbox while a command runs), and Run wakes
// the worker so the death is recorded at once.
//
// # Fork
//
// POST /api/v1/machines with fork_from (or the create_machine tool) makes a
// new machine from another machine of the same agent: from its last snapshot
// when it is stopped, or from a snapshot of a running one taken in place
// (runsc checkpoint --leave-running: a pause of about 0.1–0.2 s; its
// processes, connections, address and billing carry on). The fork has its own writable layer, address and
// billing; files in the source (injected credentials too) are in the fork.
//
// # Credentials
//
// inject_credential_ids: for each id, CredentialSource.ValueForMachine
// returns a file name and value, written with mode 0600 to
// /run/agentsvc/credentials/<name> inside the machine (a tmpfs: the value is
// in the sandbox's memory, and on the host only inside the machine's own
// snapshots, which delete removes). Values are never returned; the injection is audited
// (machine.credentials_inject, with the ids).
package machines

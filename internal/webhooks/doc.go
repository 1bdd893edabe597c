// Package webhooks delivers the organization's event log to customers'
// servers: endpoints (with sealed signing secrets), the dispatcher that fans
// each event out into one delivery per matching endpoint, the workers that
// send deliveries signed, time out, retry on a fixed schedule and give up,
// the hourly budgets of tests, replays and redeliveries, and the retention
// sweep.
//
// # Delivery state machine (the reference's table)
//
//	From                 Trigger                                         Next       Also
//	(event occurs)       endpoint active and takes the type              pending    due at once
//	(event occurs)       endpoint paused or disabled                     skipped
//	pending or failed    endpoint answers 2xx within the attempt timeout succeeded  endpoint failure count reset
//	                     (10 s)
//	pending or failed    attempt fails: non-2xx, 3xx (redirects are      failed     next_attempt_at = now + schedule[attempts-1],
//	                     never followed), timeout, connection error,                stretched by up to 10 % (random)
//	                     refused address
//	failed               the 10th attempt fails                          dead       can still be replayed
//	pending or failed    claimed while the endpoint is paused/disabled   skipped
//	pending or failed    claimed when the endpoint no longer takes the   dead
//	                     event type (PATCH event_types or inbox_id)
//	dead, skipped,       replay (one) or redeliver (since, statuses)     pending    attempts restart at 0; signed with the
//	failed                                                                          current secret (and the previous one
//	                                                                                during its 24 h overlap)
//
// Retry schedule after attempt n (1-9): 5 s, 1 min, 5 min, 30 min, 1 h, 2 h,
// 4 h, 8 h, 8 h. A delivery's body is fixed when it is created; each attempt
// is signed afresh (X-Service-Timestamp is the attempt's time, so a retry
// passes a receiver's 5-minute tolerance).
//
// # Endpoint states
//
//	active               PATCH status paused                             paused
//	paused or disabled   PATCH status active                             active     failure count reset
//	active               an attempt fails, the endpoint has been failing  disabled   owners notified (OwnerNotifier),
//	                     for 3 days with no success in between and has                  audit entry webhook.endpoint_disabled
//	                     at least 20 failed attempts since
//
// One successful delivery resets failing_since and the failure count.
//
// # Durability
//
// Delivery rows are the state. The dispatcher's position in each
// organization's log is a row in webhook_cursors, advanced in the same
// transaction that inserts the deliveries (claimed with FOR UPDATE SKIP
// LOCKED on PostgreSQL, so two nodes never fan out the same events; a unique
// index on (endpoint, event) makes a repeat harmless anyway). A node leases
// due deliveries (leased_until) before sending them and records the outcomes
// afterwards; a node that dies leaves leases that expire, and the deliveries
// are sent again: at least once, never lost.
//
// # The delivery pump
//
// Each node runs one pump. A turn is one write transaction: it records the
// outcomes that came back since the last turn, fans out the organizations
// whose log moved, and leases due deliveries for the places that freed up;
// outcomes arriving during a turn go into the next one, so a delivery costs
// a share of a commit. The endpoints a node holds leases of are its own: on
// PostgreSQL a claim skips endpoints with leases of another node; on SQLite
// one process owns the database, so that check is left out. A node holds up
// to 8 x PerEndpointInFlight deliveries of one endpoint (the reserve) and
// sends at most PerEndpointInFlight of an endpoint at once (Workers in all),
// queueing the rest per endpoint; an attempt that ends starts the next
// queued delivery of its endpoint at once, without waiting for a turn. So at
// most PerEndpointInFlight requests reach an endpoint at a time across all
// nodes, and a slow receiver holds a bounded share of the workers. A lease
// covers the wait in the queue and the attempt; a queued delivery whose
// lease could end mid-attempt is let go and claimed again later; queued
// deliveries are given back at shutdown.
//
// On SQLite the fan-out leases fresh deliveries itself (inserted with
// leased_until set, handed to the pump after the commit) while the node and
// the endpoint's reserve have places, so a delivery costs an INSERT and the
// UPDATE of its outcome and no claim. Deliveries that do not fit are left
// unleased and give their endpoint a backlog: its fresh deliveries wait
// behind them (oldest first) until a claim has taken them all. The claim
// (a window query over the due deliveries) then runs only for a backlog, at
// start, on the poll (due retries), on a notification (tests, replays,
// redeliveries), after a lease was let go and after a claim that filled its
// limit. On SQLite every statement of a turn has a fixed text (one row each)
// so it is prepared once; PostgreSQL gets multi-row statements (one round
// trip each).
package webhooks

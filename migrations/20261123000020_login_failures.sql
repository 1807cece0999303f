-- Failed sign-ins per account (issue: hardening, finding 9): after a few failures in a row an
-- account's next attempt must wait, doubling each time, so guessing one account's password is
-- slow whatever addresses the guesses come from. Keyed by the normalised email whether or not
-- an account has it, so the throttle does not tell which emails exist.
CREATE TABLE login_failures (
    email_key      text PRIMARY KEY,
    failures       integer NOT NULL,
    locked_until   timestamptz NOT NULL,
    last_failed_at timestamptz NOT NULL DEFAULT now()
);

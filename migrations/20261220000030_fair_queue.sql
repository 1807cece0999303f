-- SPEC T3: outbound deliveries cannot stall other work. Each webhook endpoint has a circuit
-- breaker (after `consecutive_failures` attempts in a row fail, no connection is tried until
-- `breaker_open_until`), and its manual sends (`/test`, `/replay`) are counted per minute.
ALTER TABLE webhook_endpoints
    ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0,
    ADD COLUMN breaker_open_until   timestamptz,
    ADD COLUMN manual_window        timestamptz,
    ADD COLUMN manual_sends         integer NOT NULL DEFAULT 0;

-- Deliveries queued before this change name their endpoint, so that one endpoint's deliveries
-- run one at a time (`fair_key`), and none while their tenant is suspended (`tenant`).
UPDATE jobs j SET payload = j.payload || jsonb_build_object('fair_key', d.endpoint_id::text, 'tenant', e.tenant_id)
  FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
 WHERE j.kind = 'webhook_deliver' AND j.status IN ('queued', 'running') AND d.id = (j.payload->>'delivery')::uuid;

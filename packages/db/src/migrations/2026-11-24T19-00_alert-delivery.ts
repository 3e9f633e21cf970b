import { sql, type Kysely } from 'kysely';

/*
 * Alert delivery (issue 14).
 * - domain_alerts.condition_key: a stateful alert (a listing, a missing record, an SSL fault) names its
 *   condition; at most one alert per domain and condition is open (unresolved), so a scan that finds it
 *   again raises nothing, and the scan that finds it gone resolves it.
 * - notified_at / resolution_notified_at: the alert's event was handed to the notify queue's fan-out;
 *   a sweep re-queues events still null after a minute (a lost job, Redis restarted).
 * - alert_deliveries: one row per alert, event and channel; `sent` is written once, so a retried job
 *   never sends again. `digest` marks an email kept for the daily digest.
 * - integrations.config now holds the sealed (AES-256-GCM) config; delivery log columns beside it.
 * - webhook_endpoints: custom webhooks, with their sealed signing secret and delivery log.
 * - notification_preferences: what each user wants delivered.
 * - domain_reputation_history.daily_for: the day of a daily recalculated point (one per domain and day).
 * Frozen in time: imports no app code.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table domain_alerts
    add column condition_key text,
    add column notified_at timestamptz,
    add column resolution_notified_at timestamptz`.execute(db);
  // Alerts raised before this migration count as delivered: nobody expects mail about last week now.
  await sql`update domain_alerts set notified_at = created_at, resolution_notified_at = coalesce(resolved_at, null)`.execute(db);
  await sql`create unique index domain_alerts_open_condition_key on domain_alerts (domain_id, condition_key)
    where resolved_at is null and condition_key is not null`.execute(db);
  await sql`create index domain_alerts_unnotified_idx on domain_alerts (created_at) where notified_at is null`.execute(db);
  await sql`create index domain_alerts_unnotified_resolution_idx on domain_alerts (resolved_at)
    where resolved_at is not null and resolution_notified_at is null`.execute(db);

  await sql`create table alert_deliveries (
    id bigint generated always as identity primary key,
    alert_id integer not null references domain_alerts(id) on delete cascade,
    event text not null check (event in ('raised', 'resolved')),
    channel text not null,
    status text not null check (status in ('pending', 'sent', 'failed', 'digest')),
    attempts integer not null default 0,
    last_error text,
    sent_at timestamptz,
    created_at timestamptz not null default now(),
    constraint alert_deliveries_alert_event_channel_key unique (alert_id, event, channel)
  )`.execute(db);
  await sql`create index alert_deliveries_digest_idx on alert_deliveries (created_at) where status = 'digest'`.execute(db);

  await sql`alter table integrations
    add column last_status text check (last_status in ('sent', 'failed')),
    add column last_error text,
    add column last_delivery_at timestamptz`.execute(db);

  await sql`create table webhook_endpoints (
    id integer generated always as identity primary key,
    user_id integer not null references users(id) on delete cascade,
    url text not null,
    description text,
    sealed_secret text not null,
    is_enabled boolean not null default true,
    last_status text check (last_status in ('sent', 'failed')),
    last_error text,
    last_delivery_at timestamptz,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index webhook_endpoints_user_id_idx on webhook_endpoints (user_id)`.execute(db);

  await sql`create table notification_preferences (
    user_id integer primary key references users(id) on delete cascade,
    email_alerts boolean not null default true,
    digest boolean not null default false,
    muted_types text[] not null default '{}',
    report_emails boolean not null default true,
    updated_at timestamptz not null default now()
  )`.execute(db);

  await sql`alter table domain_reputation_history add column daily_for date`.execute(db);
  await sql`create unique index domain_reputation_history_daily_key on domain_reputation_history (domain_id, daily_for)
    where daily_for is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only.');
}

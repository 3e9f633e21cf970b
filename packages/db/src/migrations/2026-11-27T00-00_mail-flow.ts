import { sql, type Kysely } from 'kysely';

/*
 * Mail flow (issue 25): reports received by the intake service.
 * - domains.report_token: the local part of the domain's report addresses (`<token>@<INTAKE_DOMAIN>`,
 *   `tls-<token>@…`) and the HTTPS TLS-RPT path. 24 hex characters (96 random bits) from
 *   gen_random_uuid, set for every domain at creation, so the scanner's DMARC recommendation and the
 *   intake's RCPT check read the same value without either issuing it.
 * - intake_messages: every accepted message or upload, gzip-compressed as received, stored before it is
 *   queued: a lost job or a worker killed mid-parse loses nothing (the sweep queues unread rows again).
 * - mail_reports: one row per aggregate or TLS report, unique by domain, kind, reporting organisation and
 *   report id: the same report twice is stored once. mail_report_sources keeps the report file itself
 *   (gzip) for "view source", out of the listing's rows, for a short while.
 * - dmarc_records_daily: aggregate records summed per UTC day, domain and every dimension (the
 *   dimensions' SHA-1 is the key), partitioned by month so that expiry drops whole partitions. Partitions
 *   are created by the intake ahead of need (`ensureMonthPartition`), none here.
 * - tls_results_daily: TLS-RPT sessions per day, domain, policy, MX host and result type.
 * - mail_sources: the name of each source address (forward-confirmed reverse DNS, catalogue service).
 * - dmarc_failure_reports: redacted failure reports, stored only where mail_flow_settings says so.
 * Frozen in time: imports no app code.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const token = sql`substr(replace(gen_random_uuid()::text, '-', ''), 1, 12) || substr(replace(gen_random_uuid()::text, '-', ''), 21, 12)`;
  await sql`alter table domains add column report_token text`.execute(db);
  await sql`update domains set report_token = ${token}`.execute(db);
  await sql`alter table domains alter column report_token set not null, alter column report_token set default (${token})`.execute(db);
  await sql`create unique index domains_report_token_key on domains (report_token)`.execute(db);

  await sql`create table mail_flow_settings (
    domain_id integer primary key references domains(id) on delete cascade,
    failure_reports boolean not null default false,
    updated_at timestamptz not null default now()
  )`.execute(db);

  await sql`create table intake_messages (
    id bigserial primary key,
    domain_id integer references domains(id) on delete cascade,
    channel text not null check (channel in ('smtp', 'https', 'upload')),
    envelope jsonb not null default '{}',
    content_type text,
    size integer not null,
    raw_gz bytea not null,
    state text not null default 'queued' check (state in ('queued', 'read', 'refused')),
    outcome jsonb,
    attempts integer not null default 0,
    received_at timestamptz not null default now(),
    read_at timestamptz
  )`.execute(db);
  await sql`create index intake_messages_unread_idx on intake_messages (received_at) where state = 'queued'`.execute(db);
  await sql`create index intake_messages_received_idx on intake_messages (received_at)`.execute(db);

  await sql`create table mail_reports (
    id bigserial primary key,
    domain_id integer not null references domains(id) on delete cascade,
    kind text not null check (kind in ('aggregate', 'tls')),
    org_name text not null,
    org_email text,
    report_id text not null,
    period_begin timestamptz not null,
    period_end timestamptz not null,
    policy jsonb not null default '{}',
    records integer not null,
    messages bigint not null,
    channel text not null check (channel in ('smtp', 'https', 'upload')),
    message_id bigint references intake_messages(id) on delete set null,
    received_at timestamptz not null default now(),
    unique (domain_id, kind, org_name, report_id)
  )`.execute(db);
  await sql`create index mail_reports_domain_received_idx on mail_reports (domain_id, received_at desc)`.execute(db);
  await sql`create table mail_report_sources (
    report_id bigint primary key references mail_reports(id) on delete cascade,
    content_type text not null,
    source_gz bytea not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index mail_report_sources_created_idx on mail_report_sources (created_at)`.execute(db);

  // No foreign key: a purged domain's rows go with its partition's expiry or the purge's delete.
  await sql`create table dmarc_records_daily (
    day date not null,
    domain_id integer not null,
    key bytea not null,
    source_ip inet not null,
    header_from text not null,
    envelope_from text not null,
    spf_domain text not null,
    spf_result text not null,
    dkim_domain text not null,
    dkim_selector text not null,
    dkim_result text not null,
    spf_aligned boolean not null,
    dkim_aligned boolean not null,
    disposition text not null,
    override text not null,
    messages bigint not null,
    primary key (domain_id, day, key)
  ) partition by range (day)`.execute(db);

  await sql`create table tls_results_daily (
    day date not null,
    domain_id integer not null references domains(id) on delete cascade,
    policy_type text not null,
    policy_domain text not null,
    mx_host text not null,
    result_type text not null,
    sessions bigint not null,
    primary key (domain_id, day, policy_type, policy_domain, mx_host, result_type)
  )`.execute(db);

  await sql`create table mail_sources (
    ip inet primary key,
    host text,
    service_id text,
    named_at timestamptz
  )`.execute(db);
  await sql`create index mail_sources_unnamed_idx on mail_sources (ip) where named_at is null`.execute(db);

  await sql`create table dmarc_failure_reports (
    id bigserial primary key,
    domain_id integer not null references domains(id) on delete cascade,
    received_at timestamptz not null default now(),
    arrival_date timestamptz,
    source_ip inet,
    auth_failure text,
    report jsonb not null
  )`.execute(db);
  await sql`create index dmarc_failure_reports_domain_idx on dmarc_failure_reports (domain_id, received_at desc)`.execute(db);
}

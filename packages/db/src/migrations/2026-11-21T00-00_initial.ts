import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * Every table of both specification documents' §3, plus `scans` (one row per scan run, grouping its
 * checks), `password_reset_tokens` and `stripe_events`. Frozen in time: imports no app code.
 * Enumerations are CHECK constraints so a bad value can never be stored by any service.
 */

const id = (col: ColumnDefinitionBuilder) => col.primaryKey().generatedAlwaysAsIdentity();
const now = sql`now()`;

function inList(column: string, values: readonly string[]) {
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
}

// Kysely's guidance: migrations take Kysely<any>, never the app's schema type, which changes later.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', id)
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('stripe_customer_id', 'text', (c) => c.unique())
    .addColumn('stripe_subscription_id', 'text')
    // planType is free text on purpose: the product must show "other" plans it does not know (part 1 §6).
    .addColumn('plan_type', 'text', (c) => c.notNull().defaultTo('free'))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('AUD'))
    .addColumn('currency_locked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('preferences_set', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('date_format', 'text', (c) => c.notNull().defaultTo('MM/dd/yyyy'))
    .addColumn('storage_usage', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('storage_limit', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('one_time_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('signup_source', 'text', (c) => c.notNull().defaultTo('direct'))
    .addColumn('quick_check_domain', 'text')
    .addColumn('show_upgrade_notification', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    // SHA-256 of the emailed token: a database leak must not verify accounts.
    .addColumn('email_verification_token', 'text')
    .addColumn('email_verification_expires', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('users_currency_check', inList('currency', ['AUD', 'USD', 'CAD']))
    .addCheckConstraint('users_signup_source_check', inList('signup_source', ['direct', 'quick-check', 'landing_page']))
    .addCheckConstraint('users_counters_check', sql`storage_usage >= 0 and storage_limit >= 0 and one_time_credits >= 0`)
    .execute();
  // Case-insensitive uniqueness: "Alice" and "alice" are one username, and emails are stored lower-cased.
  await sql`create unique index users_username_lower_key on users (lower(username))`.execute(db);
  await sql`create unique index users_email_lower_key on users (lower(email))`.execute(db);
  await db.schema
    .createIndex('users_email_verification_token_idx')
    .on('users')
    .column('email_verification_token')
    .where(sql.ref('email_verification_token'), 'is not', null)
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('password_reset_tokens_user_id_idx').on('password_reset_tokens').column('user_id').execute();

  await db.schema
    .createTable('domains')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('last_scan', 'timestamptz')
    .addColumn('scan_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_detailed_report', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('is_deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deleted_at', 'timestamptz')
    // The scheduler's due time: null means not scheduled (free plans, deleted domains).
    .addColumn('next_scan_at', 'timestamptz')
    .addColumn('last_manual_scan_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('domains_user_id_name_key', ['user_id', 'name'])
    .addCheckConstraint('domains_status_check', inList('status', ['pending', 'healthy', 'warning', 'critical', 'error', 'unknown']))
    .addCheckConstraint('domains_deleted_check', sql`is_deleted = (deleted_at is not null)`)
    .execute();
  await sql`create index domains_due_idx on domains (next_scan_at) where next_scan_at is not null and not is_deleted`.execute(db);
  await sql`create index domains_deleted_at_idx on domains (deleted_at) where is_deleted`.execute(db);

  await db.schema
    .createTable('scans')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('overall_status', 'text')
    .addColumn('error', 'text')
    .addColumn('dns_snapshot', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addCheckConstraint('scans_trigger_check', inList('trigger', ['scheduled', 'manual', 'signup', 'blacklist']))
    .addCheckConstraint('scans_status_check', inList('status', ['queued', 'running', 'completed', 'failed']))
    .execute();
  await sql`create index scans_domain_id_created_at_idx on scans (domain_id, created_at desc)`.execute(db);

  const checkTypes = ['spf', 'dkim', 'dmarc', 'blacklist', 'ssl_certificate', 'dns_performance'];
  const checkStatuses = ['valid', 'success', 'warning', 'error', 'missing', 'unknown'];
  await db.schema
    .createTable('domain_checks')
    .addColumn('id', 'integer', id)
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('scan_id', 'uuid', (c) => c.notNull().references('scans.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('value', 'text')
    .addColumn('message', 'text')
    .addColumn('recommendation', 'text')
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    // A scan holds one check of each type, so a retried job can never write a check twice.
    .addUniqueConstraint('domain_checks_scan_id_type_key', ['scan_id', 'type'])
    .addCheckConstraint('domain_checks_type_check', inList('type', checkTypes))
    .addCheckConstraint('domain_checks_status_check', inList('status', checkStatuses))
    .execute();
  await sql`create index domain_checks_domain_id_created_at_idx on domain_checks (domain_id, created_at desc)`.execute(db);

  await db.schema
    .createTable('domain_reputation_history')
    .addColumn('id', 'integer', id)
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('scan_id', 'uuid', (c) => c.references('scans.id').onDelete('set null'))
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('factors', 'jsonb', (c) => c.notNull())
    .addColumn('trend', 'text', (c) => c.notNull().defaultTo('stable'))
    .addColumn('previous_score', 'integer')
    .addColumn('calculated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('reputation_score_check', sql`score between 0 and 100`)
    .addCheckConstraint('reputation_trend_check', inList('trend', ['improving', 'declining', 'stable']))
    .execute();
  await sql`create index reputation_domain_id_calculated_at_idx on domain_reputation_history (domain_id, calculated_at desc)`.execute(db);

  await db.schema
    .createTable('domain_alerts')
    .addColumn('id', 'integer', id)
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('check_id', 'integer', (c) => c.references('domain_checks.id').onDelete('set null'))
    .addColumn('is_read', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_sent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('domain_alerts_severity_check', inList('severity', ['critical', 'high', 'medium', 'low']))
    .execute();
  await sql`create index domain_alerts_user_id_created_at_idx on domain_alerts (user_id, created_at desc)`.execute(db);
  await db.schema.createIndex('domain_alerts_domain_id_idx').on('domain_alerts').column('domain_id').execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('domain_id', 'integer', (c) => c.references('domains.id').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('completed'))
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('is_purchased', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('purchase_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`create index reports_user_id_created_at_idx on reports (user_id, created_at desc)`.execute(db);

  await db.schema
    .createTable('sample_domains')
    .addColumn('id', 'integer', id)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('last_scan', 'timestamptz')
    .addColumn('scan_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createTable('sample_domain_checks')
    .addColumn('id', 'integer', id)
    .addColumn('sample_domain_id', 'integer', (c) => c.notNull().references('sample_domains.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('value', 'text')
    .addColumn('message', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('sample_domain_checks_type_check', inList('type', checkTypes))
    .addCheckConstraint('sample_domain_checks_status_check', inList('status', checkStatuses))
    .execute();
  await db.schema.createIndex('sample_domain_checks_sample_domain_id_idx').on('sample_domain_checks').column('sample_domain_id').execute();

  await db.schema
    .createTable('inbox_placement_tests')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('domain_id', 'integer', (c) => c.references('domains.id').onDelete('cascade'))
    .addColumn('test_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('from_email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('html_content', 'text')
    .addColumn('text_content', 'text')
    .addColumn('results', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('inbox_rate', 'integer')
    .addColumn('spam_rate', 'integer')
    .addColumn('missing_rate', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('inbox_placement_tests_user_id_idx').on('inbox_placement_tests').column('user_id').execute();

  await db.schema
    .createTable('integrations')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('is_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('config', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('integrations_user_id_service_key', ['user_id', 'service'])
    .execute();

  // Stripe webhook events already processed: a redelivered event is acknowledged and skipped.
  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only.');
}

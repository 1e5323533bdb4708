import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261124041216 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "nexi_payment_attempt" drop constraint if exists "nexi_payment_attempt_gateway_ref_unique";`,
    )
    this.addSql(
      `alter table if exists "nexi_money_write" drop constraint if exists "nexi_money_write_idempotency_key_unique";`,
    )
    this.addSql(
      `create table if not exists "nexi_money_write" ("id" text not null, "kind" text check ("kind" in ('capture', 'refund', 'void', 'cancel_capture', 'moto', 'apm_refund', 'apm_reversal')) not null, "origin" text check ("origin" in ('medusa', 'staff', 'release')) not null default 'medusa', "idempotency_key" text not null, "gateway_ref" text not null, "target_ref" text null, "amount_minor" text not null, "currency" text not null, "medusa_ref" text null, "outcome" text check ("outcome" in ('requested', 'executed', 'refused', 'unknown')) not null default 'requested', "gateway_operation_id" text null, "follow_state" text check ("follow_state" in ('none', 'following', 'done', 'rejected')) not null default 'none', "claimed_by" text null, "message" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "nexi_money_write_pkey" primary key ("id"));`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_money_write_deleted_at" ON "nexi_money_write" ("deleted_at") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_nexi_money_write_idempotency_key_unique" ON "nexi_money_write" ("idempotency_key") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_money_write_gateway_ref" ON "nexi_money_write" ("gateway_ref") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_money_write_outcome" ON "nexi_money_write" ("outcome") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_money_write_follow_state" ON "nexi_money_write" ("follow_state") WHERE deleted_at IS NULL;`,
    )

    this.addSql(
      `create table if not exists "nexi_payment_attempt" ("id" text not null, "provider_identifier" text not null, "gateway_ref" text not null, "session_id" text null, "cart_id" text null, "amount_minor" text not null, "currency" text not null, "security_token_hash" text null, "state" text check ("state" in ('open', 'superseded', 'paid', 'released', 'closed')) not null default 'open', "next_check_at" timestamptz null, "checks" integer not null default 0, "note" text null, "released_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "nexi_payment_attempt_pkey" primary key ("id"));`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_payment_attempt_deleted_at" ON "nexi_payment_attempt" ("deleted_at") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_nexi_payment_attempt_gateway_ref_unique" ON "nexi_payment_attempt" ("gateway_ref") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_payment_attempt_state_next_check_at" ON "nexi_payment_attempt" ("state", "next_check_at") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_payment_attempt_session_id" ON "nexi_payment_attempt" ("session_id") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_payment_attempt_cart_id" ON "nexi_payment_attempt" ("cart_id") WHERE deleted_at IS NULL;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "nexi_money_write" cascade;`)

    this.addSql(`drop table if exists "nexi_payment_attempt" cascade;`)
  }
}

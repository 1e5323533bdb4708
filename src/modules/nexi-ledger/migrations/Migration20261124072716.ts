import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261124072716 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "nexi_saved_card" ("id" text not null, "provider_identifier" text not null, "customer_ref" text not null, "customer_id" text null, "contract_id" text not null, "gateway_ref" text not null, "purpose" text check ("purpose" in ('checkout', 'verify')) not null, "security_token_hash" text null, "state" text check ("state" in ('pending', 'active', 'failed', 'unsupported', 'deleted')) not null default 'pending', "circuit" text null, "masked_pan" text null, "expiry" text null, "activated_at" timestamptz null, "removed_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "nexi_saved_card_pkey" primary key ("id"));`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_saved_card_deleted_at" ON "nexi_saved_card" ("deleted_at") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_nexi_saved_card_contract_id_unique" ON "nexi_saved_card" ("contract_id") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_nexi_saved_card_gateway_ref_unique" ON "nexi_saved_card" ("gateway_ref") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_saved_card_customer_ref_state" ON "nexi_saved_card" ("customer_ref", "state") WHERE deleted_at IS NULL;`,
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_nexi_saved_card_customer_id" ON "nexi_saved_card" ("customer_id") WHERE deleted_at IS NULL;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "nexi_saved_card" cascade;`)
  }
}

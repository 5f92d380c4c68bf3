"""Accounts, third pass (issue 37):

- `users.name_key`, unique: the name folded (NFKC, Unicode case folding, NFKC again), so
  `Designer` and `designer`, or a name and its full-width or compatibility form, are one
  name. Where a database already holds such a clash, the oldest account keeps its name and
  each later one is renamed `NAME-2`, `NAME-3`, ... (its published builds' author too),
  and one line per rename is printed for the operator to pass on to its owner.
- `sessions`: server-side sessions (the cookie holds a random token, the table its SHA-256),
  so signing out and changing the password end them. The signed cookies of before are not
  sessions any more: everyone signs in once again.
- `signin_limits` replaces `signin_attempts`: one row per account name or address, whose
  count is taken and checked in one conditional statement, so parallel guesses cannot all
  pass the check before any is counted.

Revision ID: 0005
Revises: 0004
"""
import sys
import unicodedata

from alembic import op
import sqlalchemy as sa

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

NAME_MAX = 40


def _fold(name: str) -> str:
    """As generator.community.accounts.name_key does today (a migration keeps its own copy: what
    it did must not change when the code does)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _unclash(conn) -> dict[int, str]:
    """name_key for every account; later accounts whose key an older one holds are renamed."""
    rows = conn.execute(sa.text("SELECT id, name FROM users ORDER BY id")).all()
    taken: dict[str, tuple[int, str]] = {}
    keys: dict[int, str] = {}
    renamed: dict[int, str] = {}
    for user_id, name in rows:
        key = _fold(name)
        if key in taken:
            n = 2
            while True:
                suffix = f"-{n}"
                new = name[:NAME_MAX - len(suffix)] + suffix
                if _fold(new) not in taken and all(_fold(new) != _fold(r[1]) for r in rows):
                    break
                n += 1
            sys.stderr.write(f"pnp: account `{name}` (id {user_id}) is now `{new}`: its name differed only in case "
                             f"or Unicode form from `{taken[key][1]}` (id {taken[key][0]}), which keeps it; tell "
                             "its owner to sign in with the new name\n")
            renamed[user_id] = new
            name, key = new, _fold(new)
        taken[key] = (user_id, name)
        keys[user_id] = key
    for user_id, new in renamed.items():
        conn.execute(sa.text("UPDATE users SET name = :name WHERE id = :id"), {"name": new, "id": user_id})
        conn.execute(sa.text("UPDATE publications SET author = :name WHERE owner_key = :id"),
                     {"name": new, "id": user_id})
    return keys


def upgrade():
    conn = op.get_bind()
    op.add_column("users", sa.Column("name_key", sa.String(120), nullable=True))
    for user_id, key in _unclash(conn).items():
        conn.execute(sa.text("UPDATE users SET name_key = :key WHERE id = :id"), {"key": key, "id": user_id})
    with op.batch_alter_table("users") as batch:
        batch.alter_column("name_key", existing_type=sa.String(120), nullable=False)
    op.create_index("ix_users_name_key", "users", ["name_key"], unique=True)

    op.create_table("sessions", sa.Column("id", sa.String(64), primary_key=True),
                    sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"),
                              nullable=False),
                    sa.Column("created_at", sa.DateTime(), nullable=False),
                    sa.Column("expires_at", sa.DateTime(), nullable=False))
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_index("ix_sessions_expires_at", "sessions", ["expires_at"])

    op.create_table("signin_limits", sa.Column("key", sa.String(120), primary_key=True),
                    sa.Column("fails", sa.Integer(), nullable=False),
                    sa.Column("since", sa.DateTime(), nullable=False))
    op.create_index("ix_signin_limits_since", "signin_limits", ["since"])
    op.drop_index("ix_signin_attempts_key", table_name="signin_attempts")
    op.drop_index("ix_signin_attempts_at", table_name="signin_attempts")
    op.drop_table("signin_attempts")


def downgrade():
    op.create_table("signin_attempts", sa.Column("id", sa.Integer(), primary_key=True),
                    sa.Column("key", sa.String(120), nullable=False),
                    sa.Column("at", sa.DateTime(), nullable=False))
    op.create_index("ix_signin_attempts_key", "signin_attempts", ["key"])
    op.create_index("ix_signin_attempts_at", "signin_attempts", ["at"])
    op.drop_table("signin_limits")
    op.drop_table("sessions")
    op.drop_index("ix_users_name_key", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_key")

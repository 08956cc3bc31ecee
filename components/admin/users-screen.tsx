"use client";

import { ConfirmAction } from "@/components/ui/confirm-action";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../trpc-provider";
import {
  card,
  dangerButton,
  errorText,
  inputClass,
  primaryButton,
  secondaryButton,
  tableClass,
} from "@/components/ui/styles";

/** Administrators add users, change roles, reset passwords, deactivate and remove users. */
export function UsersScreen({ currentUserId }: { currentUserId: string | null }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const users = useQuery(trpc.admin.users.queryOptions());
  const refresh = { onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.admin.users.queryKey() }) };
  const create = useMutation(trpc.admin.createUser.mutationOptions(refresh));
  const update = useMutation(trpc.admin.updateUser.mutationOptions(refresh));
  const remove = useMutation(trpc.admin.deleteUser.mutationOptions(refresh));
  const [resetFor, setResetFor] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function add(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    await create.mutateAsync({ username: String(f.get("username")), password: String(f.get("password")), role: f.get("role") === "admin" ? "admin" : "user" });
    form.reset();
    setNotice(`Added ${String(f.get("username"))}.`);
  }
  async function reset(e: FormEvent<HTMLFormElement>, id: string) {
    e.preventDefault();
    await update.mutateAsync({ id, password: String(new FormData(e.currentTarget).get("password")) });
    setResetFor(null);
    setNotice("Password reset: the user was signed out everywhere and their API keys were revoked.");
  }
  async function setActive(id: string, username: string, active: boolean) {
    await update.mutateAsync({ id, active });
    setNotice(active ? `${username} can sign in again (their old API keys stay revoked).` : `${username} was deactivated: signed out everywhere, API keys revoked.`);
  }
  const error = errorText(users.error ?? create.error ?? update.error ?? remove.error);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-xl font-semibold">Users</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Resetting a password or deactivating an account signs the user out everywhere and revokes all their API keys.
        </p>
      </div>
      <form onSubmit={(e) => void add(e).catch(() => undefined)} className={`${card} flex flex-wrap items-end gap-3`} aria-label="Add user">
        <label className="flex flex-col gap-1 text-sm">
          Username
          <input name="username" required autoComplete="off" className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Password
          <input name="password" type="password" required minLength={10} autoComplete="new-password" className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Role
          <select name="role" defaultValue="user" className={inputClass}>
            <option value="user">user</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <button type="submit" disabled={create.isPending} className={primaryButton}>
          Add user
        </button>
      </form>
      {error ? <p role="alert" className="text-sm text-red-700">{error}</p> : null}
      {notice ? <p role="status" className="text-sm text-emerald-700">{notice}</p> : null}
      <section className={card}>
        <table className={tableClass}>
          <thead>
            <tr>
              <th>Username</th>
              <th>Role</th>
              <th>Status</th>
              <th>Created</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {users.data?.map((u) => (
              <tr key={u.id} data-testid="user-row" data-username={u.username}>
                <td>
                  {u.username}
                  {u.id === currentUserId ? <span className="ml-2 text-xs text-slate-500">(you)</span> : null}
                </td>
                <td>
                  <select
                    aria-label={`Role of ${u.username}`}
                    value={u.role}
                    className={inputClass}
                    onChange={(e) => update.mutate({ id: u.id, role: e.target.value === "admin" ? "admin" : "user" })}
                  >
                    <option value="user">user</option>
                    <option value="admin">admin</option>
                  </select>
                </td>
                <td data-testid="user-status">
                  {u.active ? "active" : "deactivated"}
                  {u.sso ? <span className="ml-2 text-xs text-slate-500">(single sign-on)</span> : null}
                </td>
                <td>{new Date(u.created_at).toLocaleDateString()}</td>
                <td className="text-right">
                  {resetFor === u.id ? (
                    <form onSubmit={(e) => void reset(e, u.id).catch(() => undefined)} className="inline-flex gap-2">
                      <input name="password" type="password" required minLength={10} placeholder="New password" aria-label={`New password for ${u.username}`} autoComplete="new-password" className={inputClass} />
                      <button type="submit" className={secondaryButton}>
                        Set
                      </button>
                    </form>
                  ) : (
                    <button type="button" className={secondaryButton} onClick={() => setResetFor(u.id)}>
                      Reset password
                    </button>
                  )}{" "}
                  {u.id !== currentUserId ? (
                    u.active ? (
                      <ConfirmAction
                        label="Deactivate"
                        title={`Deactivate ${u.username}?`}
                        description="They are signed out everywhere, their API keys are revoked, and they cannot sign in until reactivated."
                        confirmLabel="Deactivate"
                        triggerClassName={secondaryButton}
                        onConfirm={() => void setActive(u.id, u.username, false).catch(() => undefined)}
                      />
                    ) : (
                      <button type="button" className={secondaryButton} onClick={() => void setActive(u.id, u.username, true).catch(() => undefined)}>
                        Reactivate
                      </button>
                    )
                  ) : null}{" "}
                  {u.id !== currentUserId ? (
                    <ConfirmAction
                      label="Remove"
                      title={`Remove ${u.username}?`}
                      description="Their threads, API keys and variables are removed with the account."
                      confirmLabel="Remove"
                      triggerClassName={dangerButton}
                      onConfirm={() => remove.mutate({ id: u.id })}
                    />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

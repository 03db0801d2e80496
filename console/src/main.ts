/**
 * The QA console at /__admin/ui: scenarios, sessions, the request journal, reset, coverage and
 * the contract's resources, over the admin API of the mock that serves it.
 */
import { AdminClient, AdminTokenNeeded, adminToken, type SessionSummary } from './admin-client.js';
import { CoverageView } from './coverage-view.js';
import { byId, h } from './dom.js';
import { JournalView } from './journal-view.js';
import { ReloadBanner } from './reload-banner.js';
import { ResourcesView } from './resources-view.js';
import { ScenariosView } from './scenarios-view.js';

/** How often the page asks for news, in milliseconds. */
const POLL_MS = 1000;
/** Journal entries shown. */
const JOURNAL_LIMIT = 100;

// The page is /__admin/ui: the admin API is its folder.
const client = new AdminClient(new URL('./', location.href));
const status = byId('status', HTMLParagraphElement);
const sessionSelect = byId('session', HTMLSelectElement);
const tokenSection = byId('token-section', HTMLElement);
const tokenForm = byId('token-form', HTMLFormElement);
const tokenInput = byId('token', HTMLInputElement);
const tokenError = byId('token-error', HTMLParagraphElement);
const forgetToken = byId('forget-token', HTMLButtonElement);
const resetButton = byId('reset', HTMLButtonElement);
const resetDialog = byId('reset-dialog', HTMLDialogElement);
const resetText = byId('reset-text', HTMLParagraphElement);

let timer: ReturnType<typeof setTimeout> | undefined;
/** Whether the views show data yet (the status line says Loading… until then). */
let loaded = false;
/** The session picker's options as last shown, to rebuild it only when they change. */
let shownSessions = '';
/** Bumped on each session change: an answer for the previous session is then dropped. */
let generation = 0;
/** Refreshes asked for, and the latest shown: an older one that answers late is dropped. */
let refreshesAsked = 0;
let refreshShown = 0;

function say(message: string): void {
  status.textContent = message;
}

function sessionName(): string {
  return client.session === '' ? 'default' : client.session;
}

/** A failed call: the token prompt for a 401, a line in the status otherwise. */
function report(error: unknown): void {
  if (error instanceof AdminTokenNeeded) {
    askForToken();
    return;
  }
  say(`Error: ${error instanceof Error ? error.message : String(error)}`);
}

const journal = new JournalView(say);
const coverage = new CoverageView();
const reloadBanner = new ReloadBanner();
const resources = new ResourcesView(refreshNow);
const scenarios = new ScenariosView({
  activate(name, times) {
    act(
      () => client.activate(name, times),
      times === undefined
        ? `${name} switched on in session ${sessionName()}.`
        : `${name} switched on in session ${sessionName()} for the next ${String(times)} matching requests.`,
    );
  },
  deactivate() {
    act(() => client.deactivate(), `Scenario switched off in session ${sessionName()}.`);
  },
});

/** Runs a control's call, says how it went, and shows the news at once. */
function act(call: () => Promise<void>, done: string): void {
  call().then(() => {
    say(done);
    refreshNow();
  }, report);
}

function showSessions(sessions: readonly SessionSummary[]): void {
  const options = sessions.map((session) => {
    const id = session.id ?? '';
    const label = session.id ?? 'default';
    return { id, label: session.active ? `${label} (${session.active.name} on)` : label };
  });
  // The chosen session stays listed, even when it is no longer live.
  if (!options.some((option) => option.id === client.session)) {
    options.push({ id: client.session, label: `${client.session} (not live)` });
  }
  const wanted = JSON.stringify(options);
  if (wanted === shownSessions) return;
  shownSessions = wanted;
  sessionSelect.replaceChildren(
    ...options.map((option) => h('option', { value: option.id }, option.label)),
  );
  sessionSelect.value = client.session;
}

async function refresh(): Promise<void> {
  const session = generation;
  refreshesAsked += 1;
  const asked = refreshesAsked;
  const [list, sessions, requests, answered, reload, contractResources] = await Promise.all([
    client.scenarios(),
    client.sessions(),
    client.requests(JOURNAL_LIMIT),
    client.coverage(),
    client.reloadStatus(),
    client.resources(),
  ]);
  // Asked after the list, so a resource a reload took away is never asked for.
  const chosen = resources.chosenIn(contractResources);
  const items =
    chosen === undefined ? undefined : { name: chosen, items: await client.resourceItems(chosen) };
  if (session !== generation || asked < refreshShown) return;
  refreshShown = asked;
  scenarios.show(list.scenarios, list.active);
  showSessions(sessions);
  journal.show(requests, client.session);
  coverage.show(answered, client.session);
  resources.show(contractResources, items, client.session);
  if (reloadBanner.show(reload)) say('The edit applied: the mock serves the new version.');
  if (!loaded) say(`Showing session ${sessionName()}.`);
  loaded = true;
}

/**
 * Short polling, once a second. Not server-sent events: EventSource cannot send an
 * Authorization header, and the admin token must never travel in a URL.
 */
function poll(): void {
  timer = undefined;
  refresh().then(
    () => {
      timer ??= setTimeout(poll, POLL_MS);
    },
    (error: unknown) => {
      report(error);
      // A 401 waits for the token; anything else is tried again.
      if (!(error instanceof AdminTokenNeeded)) timer ??= setTimeout(poll, POLL_MS);
    },
  );
}

function stopPolling(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
}

function refreshNow(): void {
  stopPolling();
  poll();
}

function askForToken(): void {
  stopPolling();
  const refused = adminToken.get() !== null;
  adminToken.forget();
  forgetToken.hidden = true;
  tokenError.hidden = !refused;
  tokenError.textContent = refused ? 'That admin token was refused.' : '';
  if (tokenSection.hidden) {
    tokenSection.hidden = false;
    tokenInput.focus();
  }
  say('The admin API needs its token.');
}

tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const token = tokenInput.value.trim();
  if (token === '') return;
  adminToken.set(token);
  tokenInput.value = '';
  tokenSection.hidden = true;
  forgetToken.hidden = false;
  loaded = false;
  say('Loading…');
  refreshNow();
});

forgetToken.addEventListener('click', () => {
  adminToken.forget();
  forgetToken.hidden = true;
  say('Admin token forgotten.');
  refreshNow();
});

sessionSelect.addEventListener('change', () => {
  client.session = sessionSelect.value;
  generation += 1;
  journal.clear();
  say(`Showing session ${sessionName()}.`);
  refreshNow();
});

resetButton.addEventListener('click', () => {
  resetText.textContent = `Session ${sessionName()}: its pets, id counter, scenario and journal go back to the start. Coverage is kept.`;
  resetDialog.showModal();
});

byId('reset-cancel', HTMLButtonElement).addEventListener('click', () => {
  resetDialog.close();
});

byId('reset-confirm', HTMLButtonElement).addEventListener('click', () => {
  resetDialog.close();
  act(() => client.reset(), `Session ${sessionName()} reset.`);
});

forgetToken.hidden = adminToken.get() === null;
poll();

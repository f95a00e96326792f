import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, test } from '@playwright/test';

import { expectAccessible, screenshot } from './support';
import { press } from './support-keys';
import { describeRex } from './support-pets';
import { coverByKeyboard, detailsByKeyboard, directDebitByKeyboard } from './support-journey';

// A product team's edit reaches the customer with nothing rebuilt. The binary and the
// renderer the suite was started with serve a copy of the definitions with PAWPATH_DEV_RELOAD=1
// (the product team's live preview); the copy then gains a required question on the pet form
// (its words in both languages). On the next page load the question is asked, and the browser
// refuses the new rule before anything is sent, with the schema's message, as the server would.

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
// The binary the suite serves, as the suite's configuration names it (relative to tests/).
const binary = resolve(here, '..', process.env.PAWPATH_BIN ?? '../target/debug/pawpath');
// A server of its own per project (desktop and phone run side by side), on a port of its own.
let base = '';

// One server on the edited copy, so the spec's tests run in one worker, one after the other.
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let dir = '';

function edit(file: string, change: (json: Record<string, any>) => void) {
  const path = join(dir, file);
  const json = JSON.parse(readFileSync(path, 'utf8'));
  change(json);
  writeFileSync(path, JSON.stringify(json, null, 2));
}

test.beforeAll(async ({}, testInfo) => {
  const port = Number(process.env.PAWPATH_E2E_PORT ?? 18181) + 20 + (testInfo.project.name === 'mobile' ? 1 : 0);
  base = `http://127.0.0.1:${port}`;
  dir = mkdtempSync(join(tmpdir(), 'pawpath-edit-'));
  cpSync(join(root, 'journeys'), join(dir, 'journeys'), { recursive: true });
  cpSync(join(root, 'questions'), join(dir, 'questions'), { recursive: true });
  cpSync(join(root, 'server', 'data'), join(dir, 'server', 'data'), { recursive: true });
  server = spawn(binary, [], {
    env: {
      ...process.env,
      PORT: String(port),
      PAWPATH_DATA_DIR: join(dir, 'data'),
      PAWPATH_DEFINITIONS: dir,
      PAWPATH_STATIC_DIR: join(root, 'renderer', 'dist'),
      PAWPATH_LOG_FORMAT: 'pretty',
      PAWPATH_LOOKUPS_PER_ADDRESS: '10000000',
      PAWPATH_DEV_RELOAD: '1',
      DATABASE_URL: `sqlite://${join(dir, 'data', 'edit.db')}?mode=rwc`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pawpath on the copy of the definitions did not become ready at ${base}`);
});

/** The product team's edit: a required yes/no question on the pet form, after the neutering question. */
function addAQuestion() {
  edit('questions/pet-details.json', (set) => {
    const item = set.schema.properties.pets.items;
    item.properties.pet_kennel_club = { type: 'string', enum: ['yes', 'no'] };
    item.required.push('pet_kennel_club');
    const ui = set.ui.pets.items;
    ui['ui:order'].splice(ui['ui:order'].indexOf('pet_neutered') + 1, 0, 'pet_kennel_club');
    ui.pet_kennel_club = { 'ui:title': 'pet.kennel_club.label', 'ui:widget': 'yesNo', 'ui:enumNames': ['common.yes', 'common.no'] };
  });
  // The variant that keeps the base's required list keeps its example valid with the new answer
  // (`pawpath check` names the example otherwise).
  edit('questions/annual-rehoming-pet.json', (set) => {
    set.patch.schema.examples[0].pets[0].pet_kennel_club = 'no';
  });
  edit('questions/copy/en-GB.json', (copy) => {
    copy.messages['pet.kennel_club.label'] = 'Is your pet registered with the Kennel Club?';
  });
  edit('questions/copy/fr-FR.json', (copy) => {
    copy.messages['pet.kennel_club.label'] = 'Votre animal est-il inscrit au Kennel Club ?';
  });
}

/**
 * The product team's second edit: (b) a step after the owner's details asking whether the pets
 * are registered with a vet (its own question set), blocked with its own message when they are
 * not (a guard of its own); (c) a direct-only variant of the assumptions set (`extends`) with one
 * more question whose "yes" is refused, bound to the assumptions role on its pages.
 */
function addAStepAndAVariant() {
  writeFileSync(
    join(dir, 'questions/your-vet.json'),
    JSON.stringify({
      $schema: './schemas/question-set.schema.json',
      id: 'your_vet',
      description: 'Whether the pets are registered with a vet.',
      schema: {
        $id: 'pawpath:questions/your_vet',
        examples: [{ vet: { registered: 'yes' } }],
        type: 'object',
        required: ['vet'],
        properties: { vet: { type: 'object', required: ['registered'], properties: { registered: { type: 'string', enum: ['yes', 'no'] } } } },
      },
      ui: { vet: { registered: { 'ui:title': 'vet.registered', 'ui:widget': 'yesNo', 'ui:enumNames': ['common.yes', 'common.no'] } } },
    }),
  );
  edit('journeys/guards.json', (guards) => {
    guards.guards.pets_not_registered_with_vet = {
      description: 'The owner said the pets are not registered with a vet.',
      schema: { type: 'object', required: ['vet'], properties: { vet: { type: 'object', required: ['registered'], properties: { registered: { const: 'no' } } } } },
    };
  });
  const base = JSON.parse(readFileSync(join(dir, 'questions/assumptions.json'), 'utf8'));
  writeFileSync(
    join(dir, 'questions/assumptions-direct.json'),
    JSON.stringify({
      $schema: './schemas/question-set.schema.json',
      id: 'assumptions_direct',
      description: "The direct journey's assumptions: the shared ones and whether the pet is shown.",
      extends: 'assumptions',
      patch: {
        schema: {
          properties: {
            pets: {
              items: {
                required: [...base.schema.properties.pets.items.required, 'pet_show_dog'],
                properties: { pet_show_dog: { type: 'string', enum: ['yes', 'no'], default: 'no', not: { const: 'yes' }, 'x-errors': { not: 'assumptions.show_dog.refused' } } },
              },
            },
          },
        },
        // Arrays are replaced whole by a patch: the base's order, with the new question before the rest.
        ui: { pets: { items: { 'ui:order': base.ui.pets.items['ui:order'].flatMap((q: string) => (q === '*' ? ['pet_show_dog', '*'] : [q])), pet_show_dog: { 'ui:title': 'assumptions.show_dog.label', 'ui:widget': 'yesNo', 'ui:enumNames': ['common.yes', 'common.no'], 'ui:options': { refusal: true } } } } },
      },
    }),
  );
  const words = {
    'en-GB': {
      'step.your_vet': 'Your vet',
      'vet.registered': 'Are your pets registered with a vet?',
      'vet.blocked': 'We can only cover pets registered with a vet. Please call us.',
      'assumptions.show_dog.label': 'Is your pet shown or entered in competitions?',
      'assumptions.show_dog.refused': "We can't cover pets that are shown or compete.",
    },
    'fr-FR': {
      'step.your_vet': 'Votre vétérinaire',
      'vet.registered': 'Vos animaux sont-ils suivis par un vétérinaire ?',
      'vet.blocked': "Nous n'assurons que les animaux suivis par un vétérinaire.",
      'assumptions.show_dog.label': 'Votre animal participe-t-il à des concours ?',
      'assumptions.show_dog.refused': "Nous n'assurons pas les animaux de concours.",
    },
  };
  for (const [language, messages] of Object.entries(words)) {
    edit(`questions/copy/${language}.json`, (copy) => Object.assign(copy.messages, messages));
  }
  edit('journeys/direct.json', (journey) => {
    journey.step_bar[1].steps.push('your_vet');
    const steps = journey.steps as Array<Record<string, any>>;
    const details = steps.findIndex((s) => s.id === 'your_details');
    const after = steps[details].exits;
    steps[details].exits = [{ to: 'your_vet' }];
    steps.splice(details + 1, 0, {
      id: 'your_vet',
      path: '/your-vet',
      title: 'step.your_vet',
      view: 'form',
      questions: 'your_vet',
      blocking: [{ id: 'no_vet', when: 'pets_not_registered_with_vet', message: 'vet.blocked', field: 'vet.registered' }],
      exits: after,
    });
    for (const step of steps) {
      if (step.questions === 'assumptions') step.questions = 'assumptions_direct';
      for (const e of step.edits ?? []) {
        if (e.questions === 'assumptions') Object.assign(e, { questions: 'assumptions_direct', role: 'assumptions' });
      }
    }
  });
}

/** The definitions version the server is serving, as the page's view data names it. */
async function servedVersion(): Promise<string> {
  const view = await fetch(`${base}/api/view?path=${encodeURIComponent('/quote?brand=pos')}`).then((r) => r.json());
  return /\/quote\/definitions\/([^/]+)\//.exec(view.data.copy_url)?.[1] ?? '';
}

test.afterAll(() => {
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a question added to a set is asked on the next page load, and its rule kept by the browser before the server', async ({ page }, testInfo) => {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/petdetails')) sent.push(r.url());
  });
  await page.goto(`${base}/quote?brand=pos`);
  const question = page.getByRole('group', { name: 'Is your pet registered with the Kennel Club?' });
  await expect(page.getByLabel("What is your pet's name?")).toBeVisible();
  await expect(question).toHaveCount(0);
  // The product team edits the files; the server loads and checks them within a second or two.
  const before = await servedVersion();
  addAQuestion();
  await expect.poll(servedVersion, { timeout: 30_000 }).not.toBe(before);
  await page.reload();
  await describeRex(page);
  await expect(question).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  // Refused in the browser, with the schema's message (the default for `required`), and nothing sent.
  await expect(page.getByText('Please Check the following fields:')).toBeVisible();
  await expect(question).toContainText('This field is required');
  expect(sent).toEqual([]);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'definitions-edit-refused');
  await question.getByRole('radio', { name: 'No' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details/);
  expect(sent).toHaveLength(1);
});

test('the server holds the same rule for a caller that skips the browser', async ({ request }) => {
  const opened = await request.get(`${base}/api/view?path=${encodeURIComponent('/quote?brand=pos')}`);
  expect(opened.ok()).toBe(true);
  const { data } = await opened.json();
  const pet = { pet_name: 'Rex', pet_type: 'dog', dog_breed_type: 'breed', pet_breed: 'D173', pet_date_of_birth: '2023-02-01', pet_sex: 'm', pet_neutered: 'yes', pet_any_injury_illness: 'no', pet_cost: '0' };
  const refused = await request.post(`${base}/api/petdetails`, { data: { csrf: data.csrf, pets: [pet] } });
  expect(refused.status()).toBe(422);
  expect((await refused.json()).errors).toContainEqual({ field: 'pets[0].pet_kennel_club', message: 'This field is required' });
});

test('a new step with its blocking answer, and a variant of the assumptions, walked through to a purchase', async ({ page }, testInfo) => {
  const before = await servedVersion();
  addAStepAndAVariant();
  await expect.poll(servedVersion, { timeout: 30_000 }).not.toBe(before);
  await page.goto(`${base}/quote?brand=pos`);
  await describeRex(page);
  await page.getByRole('group', { name: 'Is your pet registered with the Kennel Club?' }).getByRole('radio', { name: 'No' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await detailsByKeyboard(page, `edit-${testInfo.project.name}@example.com`);
  await press(page, page.getByRole('button', { name: 'Next' }));

  // (b) The new step, drawn by the generic form step; its blocking answer keeps the customer there
  // with its own message.
  await expect(page).toHaveURL(/\/quote\/your-vet$/);
  const registered = page.getByRole('group', { name: 'Are your pets registered with a vet?' });
  await registered.getByRole('radio', { name: 'No' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('We can only cover pets registered with a vet. Please call us.')).toBeVisible();
  await expect(page).toHaveURL(/\/quote\/your-vet$/);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'definitions-edit-new-step-blocked');
  await registered.getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await coverByKeyboard(page, ['Rex']);

  // (c) The variant of the assumptions: its extra question is shown, and changed in the modal the
  // page finds in the assumptions role.
  await press(page, page.getByRole('button', { name: 'Continue' }));
  await expect(page).toHaveURL(/\/quote\/assumptions$/);
  await expect(page.getByText('Is your pet shown or entered in competitions?')).toBeVisible();
  await page.getByRole('button', { name: 'No, change assumptions – Rex' }).click();
  const dialog = page.getByRole('dialog');
  const shown = dialog.getByRole('group', { name: 'Is your pet shown or entered in competitions?' });
  await shown.getByRole('radio', { name: 'Yes' }).check();
  await expect(dialog.getByText("We can't cover pets that are shown or compete.")).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'definitions-edit-variant-refused');
  await shown.getByRole('radio', { name: 'No' }).check();
  await dialog.getByRole('button', { name: 'Save and close' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('checkbox', { name: /Yes, they're correct/ }).check();
  await page.getByRole('button', { name: 'Go to payment' }).click();

  await directDebitByKeyboard(page);
  await press(page, page.getByRole('button', { name: 'Confirm payment' }));
  await expect(page).toHaveURL(/\/quote\/payment-confirmation$/);
  await press(page, page.getByRole('button', { name: 'Continue' }));
  await expect(page).toHaveURL(/\/quote\/confirmation$/);
  await expect(page.getByRole('region', { name: 'Rex' })).toContainText(/PETPS\d{7}/);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'definitions-edit-bought');
});

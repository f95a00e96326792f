import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:18111';
const a = JSON.parse(await (await import('node:fs/promises')).readFile('/work/main/tests/flows/_answers.json', 'utf8'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const [name, vp] of [['desktop', { width: 1280, height: 800 }], ['mobile', { width: 375, height: 812 }]]) {
  const page = await browser.newPage({ viewport: vp });
  await page.goto(base + '/quote');
  await page.getByRole('heading', { level: 1 }).waitFor();
  const post = (url, body) => page.evaluate(async ([url, body]) => {
    const v = await (await fetch('/quote', { headers: { Accept: 'application/json' } })).json();
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...body, csrf: v.data.csrf }) });
    return r.status;
  }, [url, body]);
  console.log(await post('/api/petdetails', { pets: [a.dog, a.cat] }));
  console.log(await post('/api/ownerdetail', { owner: a.owner }));
  await page.goto(base + '/quote/choose-policy');
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForTimeout(800);
  await page.screenshot({ path: `/tmp/shot/choose-${name}.png`, fullPage: true });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.reload();
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForTimeout(500);
  console.log(name, requests.filter((u) => !u.includes('/assets/')).join('\n'));
  await page.close();
}
await browser.close();

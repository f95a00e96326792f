// The renderer's floors as the lint holds them (eslint.config.js): fixtures linted as if they
// were files of the folders named, so a page-to-page import is seen to fail the lint, and the
// imports the floors allow are seen to pass.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

/** The lint's messages for `code` as the file `path` (from the renderer's folder). */
async function lint(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the floors', () => {
  it('refuses a page that imports another page, by the alias or a relative path', async () => {
    for (const code of [
      "import { ClaimTerms } from '@/features/cover/LevelTable';\nexport const x = ClaimTerms;\n",
      "import { LevelTable } from '../cover/LevelTable';\nexport const x = LevelTable;\n",
    ]) {
      const messages = await lint('src/features/review/Fixture.tsx', code);
      expect(messages.join('\n')).toContain('no-restricted-imports: ');
      expect(messages.join('\n')).toContain('never another page (review)');
    }
  }, 30_000);

  it('refuses a part that imports a page, and shared code that imports a feature', async () => {
    expect((await lint('src/features/form/Fixture.tsx', "import { ReviewStep } from '@/features/review/ReviewStep';\nexport const x = ReviewStep;\n")).join('\n')).toContain(
      'A part never uses a page',
    );
    expect((await lint('src/shared/fixture.ts', "import { Modal } from '@/features/shell/Modal';\nexport const x = Modal;\n")).join('\n')).toContain(
      'Shared code uses no feature',
    );
  }, 30_000);

  it('lets a page use parts and shared code, and the app use pages', async () => {
    expect(
      await lint(
        'src/features/review/Fixture.tsx',
        "import { ClaimTerms } from '@/features/products/ClaimTerms';\nimport { text } from '@/shared/copy';\nexport const x = [ClaimTerms, text];\n",
      ),
    ).toEqual([]);
    expect(await lint('src/app/Fixture.tsx', "import { ReviewStep } from '@/features/review/ReviewStep';\nexport const x = ReviewStep;\n")).toEqual([]);
  }, 30_000);
});

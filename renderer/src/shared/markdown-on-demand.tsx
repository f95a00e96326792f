/**
 * rjsf's Markdown, loaded when first drawn. @rjsf/core imports markdown-to-jsx for
 * descriptions and help written in Markdown (`ui:enableMarkdownInDescription`), which no question
 * set here turns on; statically that is 86 KB of the first page's script. vite.config.ts points
 * rjsf's import here, so the parser is fetched only by a page that draws Markdown.
 */
import type { ComponentProps } from 'react';
import type { Markdown as Real } from 'markdown-to-jsx/react';

import { onDemand } from './on-demand';

const markdown = onDemand<ComponentProps<typeof Real>>(() => import('markdown-to-jsx/react').then((m) => m.Markdown));

export const Markdown = markdown.Component;

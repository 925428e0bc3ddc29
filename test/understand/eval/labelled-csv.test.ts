import { describe, expect, it } from 'vitest';
import { LabelledCsvError, parseLabelledCsv } from '../../../src/understand/eval/labelled-csv.js';

describe('parseLabelledCsv', () => {
  it('should read quoted fields, empty and out_of_scope intents and slot lists', () => {
    const rows = parseLabelledCsv(
      'text,locale,intent,slots\n"2 large, please",en,order,quantity=2;size=large\nlol,en,,\n"say ""hi""",es-MX,out_of_scope,\n"I moved, to 5 Main St, Leeds",en,move,"address=5 Main St, Leeds"\n',
    );
    expect(rows).toEqual([
      {
        line: 2,
        text: '2 large, please',
        locale: 'en',
        intent: 'order',
        slots: { quantity: '2', size: 'large' },
      },
      { line: 3, text: 'lol', locale: 'en', intent: undefined, slots: {} },
      { line: 4, text: 'say "hi"', locale: 'es-MX', intent: undefined, slots: {} },
      {
        line: 5,
        text: 'I moved, to 5 Main St, Leeds',
        locale: 'en',
        intent: 'move',
        slots: { address: '5 Main St, Leeds' },
      },
    ]);
  });

  it.each([
    ['', /line 1: the file is empty/],
    ['text,intent\nhi,x\n', /line 1: the header has no "locale" column/],
    ['text,locale,intent,slots\nhi,en,x,quantity\n', /line 2: slot "quantity" is not name=value/],
    ['text,locale,intent,slots\nhi,en,x,\n,en,x,\n', /line 3: the text is empty/],
    ['text,locale,intent,slots\nhi,english!,x,\n', /line 2: locale "english!"/],
    ['text,locale,intent,slots\n"unclosed,en,x,\n', /line 2: a quoted field is not closed/],
    ['text,locale,intent,slots\nhi, there,en,x,\n', /line 2: 5 fields, the header has 4/],
    ['text,locale,intent,slots\nhi,en,x,a=1;a=2\n', /line 2: slot "a" is given twice/],
  ])('should reject %j with the line and the problem', (text, message) => {
    expect(() => parseLabelledCsv(text)).toThrow(LabelledCsvError);
    expect(() => parseLabelledCsv(text)).toThrow(message);
  });
});

import { describe, expect, it } from 'vitest';
import {
  asksForInformation,
  questionWordOf,
} from '../../../src/understand/builtin/question-form.js';

describe('asksForInformation', () => {
  it.each([
    'what time is my appointment',
    "who's playing tonight",
    'so where is the salon',
    'how much is a haircut',
    'how late are you open',
    'a qué hora era mi cita',
    '¿dónde está la peluquería?',
    'cuando abren',
    'cuánto cuesta',
  ])('should read %j as an information question', (text) => {
    expect(asksForInformation(text)).toBe(true);
  });

  it.each([
    'how do I cancel',
    'what do I do with the new card',
    'when can we come in',
    'cómo reservo una clase',
    'donde veo mi pin',
    'move my appointment to friday',
    'quiero que me llaméis',
    'can I book for tomorrow, and what time do you open',
  ])('should not read %j as one', (text) => {
    expect(asksForInformation(text)).toBe(false);
  });

  it('should give one question word per kind of question', () => {
    expect(questionWordOf("what's the address")).toBe('what');
    expect(questionWordOf('whats the price')).toBe('what');
    expect(questionWordOf('how many people fit')).toBe('how');
    expect(questionWordOf('¿A qué hora abrís?')).toBe('que');
    expect(questionWordOf('cuántos sois')).toBe('cuanto');
    expect(questionWordOf('how do I pay')).toBeUndefined();
  });
});

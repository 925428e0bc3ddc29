import { Router, type Request } from 'express';
import { z } from 'zod';
import type { SandboxControl } from './control.js';
import {
  ContactChange,
  ContactInput,
  KeyChange,
  KeyInput,
  NumberChange,
  NumberInput,
  parse,
  TemplateChange,
  TemplateInput,
} from './provisioning-input.js';

const RotateBody = z.strictObject({ key: z.string().min(8).optional() });
const HoldBody = z.strictObject({
  count: z.number().int().min(1).max(1_000).default(1),
  mediaId: z.string().min(1).optional(),
});

/** The body of a control request (an empty body is `{}`). */
function bodyOf(req: Request): unknown {
  const body: unknown = req.body;
  return body ?? {};
}

/**
 * Control routes for run-time provisioning (keys, numbers, templates, contacts) and
 * per-download media holds; mounted under `/sandbox` by the control router.
 */
export function provisioningRouter(control: SandboxControl): Router {
  const router = Router();

  router.get('/keys', (_req, res) => {
    res.json({ items: control.keys() });
  });
  router.post('/keys', (req, res) => {
    res.status(201).json({ key: control.addKey(parse(KeyInput, bodyOf(req), 'key')) });
  });
  router.patch('/keys/:key', (req, res) => {
    res.json({
      key: control.updateKey(req.params.key, parse(KeyChange, bodyOf(req), 'key change')),
    });
  });
  router.post('/keys/:key/rotate', (req, res) => {
    const { key } = parse(RotateBody, bodyOf(req), 'rotation');
    res.status(201).json({ key: control.rotateKey(req.params.key, key) });
  });
  router.delete('/keys/:key', (req, res) => {
    control.removeKey(req.params.key);
    res.json({ removed: true });
  });

  router.get('/numbers', (_req, res) => {
    res.json({ items: control.numbers() });
  });
  router.post('/numbers', (req, res) => {
    res.status(201).json({ number: control.addNumber(parse(NumberInput, bodyOf(req), 'number')) });
  });
  router.patch('/numbers/:id', (req, res) => {
    res.json({
      number: control.updateNumber(
        req.params.id,
        parse(NumberChange, bodyOf(req), 'number change'),
      ),
    });
  });
  router.delete('/numbers/:id', (req, res) => {
    control.removeNumber(req.params.id);
    res.json({ removed: true });
  });

  const templateRef = (req: Request<{ name: string; language: string }>) => {
    const number = req.query['number'];
    return {
      name: req.params.name,
      language: req.params.language,
      number: typeof number === 'string' ? number : undefined,
    };
  };
  router.get('/templates', (_req, res) => {
    res.json({ items: control.templates() });
  });
  router.post('/templates', (req, res) => {
    res
      .status(201)
      .json({ template: control.addTemplate(parse(TemplateInput, bodyOf(req), 'template')) });
  });
  router.patch('/templates/:name/:language', (req, res) => {
    res.json({
      template: control.updateTemplate(
        templateRef(req),
        parse(TemplateChange, bodyOf(req), 'template change'),
      ),
    });
  });
  router.delete('/templates/:name/:language', (req, res) => {
    control.removeTemplate(templateRef(req));
    res.json({ removed: true });
  });

  router.get('/contacts', (_req, res) => {
    res.json({ items: control.contacts() });
  });
  router.put('/contacts/:phone', (req, res) => {
    const body = bodyOf(req);
    const fields = typeof body === 'object' && body !== null ? body : {};
    res.json({
      contact: control.putContact(
        parse(ContactInput, { ...fields, phoneNumber: req.params.phone }, 'contact'),
      ),
    });
  });
  router.patch('/contacts/:phone', (req, res) => {
    res.json({
      contact: control.updateContact(
        req.params.phone,
        parse(ContactChange, bodyOf(req), 'contact change'),
      ),
    });
  });
  router.delete('/contacts/:phone', (req, res) => {
    control.removeContact(req.params.phone);
    res.json({ removed: true });
  });

  router.get('/media/holds', (_req, res) => {
    res.json({ items: control.downloadHolds() });
  });
  router.post('/media/holds', (req, res) => {
    const { count, mediaId } = parse(HoldBody, bodyOf(req), 'media hold');
    res.status(201).json({
      hold: control.holdDownloads({ count, ...(mediaId === undefined ? {} : { mediaId }) }),
    });
  });
  router.delete('/media/holds/:id', (req, res) => {
    control.releaseDownloads(req.params.id);
    res.json({ released: req.params.id });
  });

  return router;
}

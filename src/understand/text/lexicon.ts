/**
 * A small bilingual lexicon of customer-service words: each line is one meaning, its
 * English and Spanish words. A word of a line also counts as the line's meaning, so a
 * message meets an example that says the same thing in other words or in the other
 * language ("scrap my order" / "cancel my order", "cuánto cuesta" / "how much"). It is
 * general vocabulary of ordering, delivery, accounts and support, written independently
 * of any bot's examples or test messages; bots add their own words through examples.
 */
import { rootOf, ROOT_LANGUAGES } from './roots.js';

const LINES = `
cancel scrap abort annul revoke withdraw cancelar anular cancela anula cancele
change modify edit update alter amend swap switch replace cambiar modificar editar actualizar cambia modifica actualiza sustituir
add include extra more anadir agregar incluir sumar mas
order purchase buy pedido pedir compra comprar encargar encargo
send ship post mail dispatch enviar mandar envio despachar
parcel package packet box shipment parcels paquete caja bulto envio
deliver delivery bring drop redeliver entregar entrega repartir reparto llevar traer domicilio
collect pickup pick collection fetch recoger recogida
track tracking status whereabouts seguimiento rastrear estado
arrive arrival come turn reach llegar llega venir viene
late delayed slow waiting wait still tarde retraso retrasado esperando esperar todavia
price cost rate fee charge quote expensive cheap much precio coste costo tarifa cuesta vale cobrar presupuesto caro barato cuanto
menu list options selection catalogue carta menu opciones lista
open opening close closing hours shut schedule horario abrir abierto cerrar cerrado horas
day date tomorrow today week dia fecha manana hoy semana
time hour hora horario
address street home house location place direccion calle casa domicilio ubicacion sitio
area zone region neighbourhood postcode district zona barrio region codigo
phone number mobile cell telephone telefono numero movil celular
email mail correo electronico
damage damaged broken smashed crushed cracked torn ripped wet destroyed roto rota danado danada aplastado aplastada destrozado mojado
missing lost gone absent falta faltan perdido perdida
complaint complain claim refund problem issue reclamacion queja quejar reclamar devolucion problema
help support assistance ayuda soporte asistencia
allergy allergic allergen intolerance intolerant alergia alergico alergica alergeno intolerancia
free without sin libre
vegan vegetarian plant vegano vegana vegetariano vegetariana
book reserve schedule arrange reservar programar agendar concertar
move reschedule postpone rearrange mover aplazar posponer reprogramar
want need like quiero necesito gustaria quisiera
`;

/** Per language (`''` for languages without a stemmer): word root → meaning. */
const MEANINGS = new Map<string, Map<string, string>>();
for (const language of ['', ...ROOT_LANGUAGES]) {
  const meaning = new Map<string, string>();
  for (const line of LINES.trim().split('\n')) {
    const words = line.trim().split(/\s+/);
    const id = words[0] ?? '';
    for (const w of words) {
      const key = rootOf(w, language);
      // A word in two lines keeps its first meaning.
      if (!meaning.has(key)) meaning.set(key, id);
    }
  }
  MEANINGS.set(language, meaning);
}

/** The lexicon meaning of a word root ({@link rootOf} in `language`), if it has one. */
export function meaningOf(root: string, language = ''): string | undefined {
  return (MEANINGS.get(language) ?? MEANINGS.get(''))?.get(root);
}

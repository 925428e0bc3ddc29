/**
 * A small bilingual lexicon of customer-service words: each line is one meaning, its
 * English and Spanish words. A word of a line also counts as the line's meaning, so a
 * message meets an example that says the same thing in other words or in the other
 * language ("scrap my order" / "cancel my order", "cuánto cuesta" / "how much"). It is
 * general vocabulary of ordering, delivery, accounts and support, written independently
 * of any bot's examples or test messages; bots add their own words through examples.
 */
import { stem } from '../builtin/features.js';

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

const MEANING = new Map<string, string>();
for (const line of LINES.trim().split('\n')) {
  const words = line.trim().split(/\s+/);
  const id = words[0] ?? '';
  for (const w of words) {
    const key = stem(w);
    // A word in two lines keeps its first meaning.
    if (!MEANING.has(key)) MEANING.set(key, id);
  }
}

/** The lexicon meaning of a stemmed folded word, if it has one. */
export function meaningOf(stemmed: string): string | undefined {
  return MEANING.get(stemmed);
}

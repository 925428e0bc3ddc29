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
see show view display check look consult ver mostrar ensenar consultar mirar revisar
know tell say explain inform information info details saber decir explicar informar informacion info detalles datos
question ask query enquiry inquiry pregunta preguntar consulta duda
pay payment paid bill invoice charged charge debit pagar pago pagado factura recibo cobro cargo
account profile login password access signin username cuenta perfil contrasena clave acceso usuario
card credit debit visa mastercard tarjeta credito debito
block freeze lock stop suspend bloquear congelar suspender parar detener
stolen theft robbed steal robada robado robo robaron
balance funds money saldo dinero fondos
statement transactions movements history extracto movimientos historial transacciones
transfer wire transferencia transferir
loan mortgage credit prestamo hipoteca
return exchange devolver devolucion cambiar cambio
refund reimburse reembolso reembolsar devolucion
appointment slot visit consultation session cita turno visita consulta sesion
room suite bed habitacion cuarto cama
night stay nights noche estancia noches
guest people persons adults children kids person huesped personas adultos ninos
table tables seat seats mesa mesas sitio
checkin arrival entrada llegada
checkout departure salida
breakfast lunch dinner meal desayuno almuerzo comida cena
haircut cut trim hair style corte cortar pelo cabello peinado
colour color dye highlights tint tinte mechas color
nails manicure pedicure unas manicura pedicura
doctor dentist nurse physio medico dentista enfermera fisio
sick ill pain hurt ache enfermo dolor duele malestar
prescription medicine medication pills receta medicamento medicina pastillas
insurance policy cover coverage seguro poliza cobertura
plan subscription contract membership tarifa suscripcion contrato membresia abono
internet wifi connection broadband fibre signal red conexion fibra senal
slow outage down offline working lento caido caida funciona
bug error fault failure glitch fallo falla averia
fix repair solve resolve arreglar reparar solucionar resolver
install setup installation instalar instalacion configurar
upgrade improve mejorar ampliar
discount offer promo promotion coupon code deal descuento oferta promocion cupon codigo
stock available availability left disponible disponibilidad quedan existencias
size sizes fit talla tamano medida
colour colours color colores
buy purchase comprar adquirir
product item article thing producto articulo cosa
gift present regalo
receipt ticket proof recibo comprobante justificante
feedback review opinion rating resena valoracion
thank thanks grateful gracias agradecido
hello hi hey greetings morning afternoon evening hola buenas saludos
bye goodbye later adios chao hasta
yes yeah yep sure correct right exactly si claro vale correcto exacto
no nope nah not wrong incorrect no tampoco incorrecto
person human agent someone representative operator staff persona humano agente alguien asesor operador empleado
urgent emergency asap quickly urgente emergencia rapido pronto
now immediately today ahora ya inmediatamente
again repeat another otra otro repetir nuevo
wrong mistake incorrect error equivocado equivocacion incorrecto
week weekend monday tuesday wednesday thursday friday saturday sunday semana lunes martes miercoles jueves viernes sabado domingo
price prices pricing costs precios
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

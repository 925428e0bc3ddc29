/**
 * A small bilingual lexicon of customer-service words: each line is one meaning, its
 * English words, `|`, its Spanish words (a word said the same in both, "menu", "hotel",
 * is on both sides). A word of a line also counts as the line's meaning, so a
 * message meets an example that says the same thing in other words or in the other
 * language ("scrap my order" / "cancel my order", "cuánto cuesta" / "how much"). It is
 * general vocabulary of the businesses that run bots (ordering, delivery, banking,
 * telecom, clinics, travel and rentals, retail, education, home services, beauty, events,
 * property, transport) and of common complaints (pain, broken, bleeding, stuck), written
 * from general knowledge, independently of any bot's examples or test messages; bots add
 * their own words through examples. Words a bot's intents must tell apart stay on separate
 * lines (book / cancel / move, price / pay, damage / missing). Its words also correct
 * typos ({@link lexiconWords}): "punture", a word no example uses, still means puncture.
 */
import { rootOf, ROOT_LANGUAGES } from './roots.js';

const LINES = `
cancel scrap abort annul revoke withdraw remove delete | cancelar anular cancela anula cancele eliminar borrar
change modify edit update alter amend swap switch replace | cambiar modificar editar actualizar cambia modifica actualiza sustituir
add include extra more | anadir agregar incluir sumar mas extra meter
order purchase buy | pedido pedir compra comprar encargar encargo
send ship post mail dispatch | enviar mandar envio despachar
parcel package packet box shipment parcels | paquete caja bulto envio
deliver delivery bring drop redeliver | entregar entrega repartir reparto llevar traer traigo traiga traigan traigais acercar domicilio
collect pickup pick collection fetch | recoger recogida
track tracking status whereabouts | seguimiento rastrear estado
arrive arrival come turn reach | llegar llega venir viene
late delayed slow waiting wait still | tarde retraso retrasado esperando esperar todavia
price cost rate fee charge quote expensive cheap much fees charges rates | precio coste costo tarifa cuesta vale cobrar presupuesto caro barato cuanto tarifas
menu list options selection catalogue | carta menu opciones lista
open opening close closing hours shut schedule timetable | horario abrir abierto cerrar cerrado horas abris abren
day date tomorrow today week | dia fecha manana hoy semana
time hour | hora horario
address street home house location place | direccion calle casa domicilio ubicacion sitio
area zone region neighbourhood postcode district | zona barrio region codigo
phone number mobile cell telephone | telefono numero movil celular
email mail | correo electronico email
damage damaged broken smashed crushed cracked torn ripped wet destroyed broke chipped snapped | roto rota danado danada aplastado aplastada destrozado mojado romper rompio rompi rompe partido partida
missing lost gone absent mislaid | falta faltan perdido perdida extraviado extraviada extravio
complaint complain claim refund problem issue | reclamacion queja quejar reclamar devolucion problema
help support assistance | ayuda soporte asistencia
allergy allergic allergen intolerance intolerant | alergia alergico alergica alergeno intolerancia
free without | sin libre
vegan vegetarian plant | vegano vegana vegetariano vegetariana
book reserve schedule arrange | reservar programar agendar concertar
move reschedule postpone rearrange rebook push | mover aplazar posponer reprogramar adelantar
instead rather prefer preferably | prefiero preferiria preferible
want need like | quiero necesito gustaria quisiera
see show view display check look consult | ver mostrar ensenar consultar mirar revisar
know tell say explain inform information info details | saber decir explicar informar informacion info detalles datos
question ask query enquiry inquiry | pregunta preguntar consulta duda
pet pets dog dogs cat cats animal animals | mascota mascotas perro perros gato gatos animal animales
pay payment paid bill invoice charged charge debit deposit | pagar pago pagado factura recibo cobro cargo fianza deposito
account profile login password access signin username | cuenta perfil contrasena clave acceso usuario
card credit debit visa mastercard | tarjeta credito debito visa mastercard
block freeze lock stop suspend | bloquear congelar suspender parar detener
stolen theft robbed steal | robada robado robo robaron
balance funds money | saldo dinero fondos
statement transactions movements history | extracto movimientos historial transacciones
transfer wire | transferencia transferir
loan mortgage credit | prestamo hipoteca
return exchange | devolver devolucion cambiar cambio
refund reimburse compensation compensate | reembolso reembolsar devolucion indemnizacion compensacion
appointment slot visit consultation session appt | cita turno visita consulta sesion hueco huecos
room suite bed | habitacion cuarto cama
night stay nights | noche estancia noches
guest people persons adults children kids person | huesped personas adultos ninos
table tables seat seats | mesa mesas sitio asiento asientos
checkin arrival | entrada llegada
checkout departure | salida
breakfast lunch dinner meal | desayuno almuerzo comida cena
haircut cut trim hair style | corte cortar pelo cabello peinado
colour color dye highlights tint | tinte mechas color
nails manicure pedicure | unas manicura pedicura
doctor dentist nurse physio surgeon gp physician specialist | medico dentista enfermera fisio cirujano especialista doctor
sick ill pain hurt ache painful sore aching toothache headache agony | enfermo dolor duele malestar doler duelen dolorido dolorida molestia molestias
prescription medicine medication pills | receta medicamento medicina pastillas
insurance policy cover coverage insured insurer insurers covered | seguro poliza cobertura cubre cubren cubierto asegurado aseguradora mutua
plan subscription contract membership | tarifa suscripcion contrato membresia abono plan
internet wifi connection broadband fibre signal | red conexion fibra senal internet wifi
slow outage down offline working | lento caido caida funciona arranca arrancar arranque enciende
bug error fault failure glitch breakdown | fallo falla averia estropeado estropeada averiado averiada error
fix repair solve resolve | arreglar reparar solucionar resolver
install setup installation | instalar instalacion configurar
upgrade improve | mejorar ampliar
discount offer promo promotion coupon code deal | descuento oferta promocion cupon codigo promo
stock available availability left | disponible disponibilidad quedan existencias
choose select selection choice | elegir escoger seleccionar eleccion
size sizes fit | talla tamano medida
colour colours color | colores color
buy purchase | comprar adquirir
product item article thing | producto articulo cosa
gift present | regalo
receipt ticket proof | recibo comprobante justificante ticket billete billetes
feedback review opinion rating | resena valoracion opinion
thank thanks grateful | gracias agradecido
hello hi hey greetings morning afternoon evening | hola buenas saludos
bye goodbye later | adios chao hasta
yes yeah yep sure correct right exactly | si claro vale correcto exacto
no nope nah not wrong incorrect | no tampoco incorrecto
person human agent someone representative operator staff reception receptionist | persona humano agente alguien asesor operador empleado recepcion recepcionista
urgent emergency asap quickly urgently | urgente emergencia rapido pronto urgencia urgencias
now immediately today | ahora ya inmediatamente
ready prepared done finished | listo lista listos listas preparado preparada preparados preparadas terminado terminada
again repeat another | otra otro repetir nuevo
wrong mistake incorrect error | equivocado equivocacion incorrecto error
week weekend monday tuesday wednesday thursday friday saturday sunday | semana lunes martes miercoles jueves viernes sabado domingo finde
price prices pricing costs | precios
talk speak chat | hablar charlar conversar
tooth teeth molar molars | diente dientes muela muelas dentadura
gum gums | encia encias
filling fillings crown crowns | empaste empastes corona coronas
bleed bleeding bled blood | sangra sangrar sangrado sangre sangrando
swollen swelling swell inflamed inflammation | hinchado hinchada hinchazon inflamado inflamada inflamacion
injury injured accident crash crashed knocked fell fall | lesion herido herida golpe golpeado accidente choque chocado caido caida
clinic surgery practice hospital | clinica consultorio ambulatorio hospital
patient patients | paciente pacientes
checkup examination | revision chequeo reconocimiento
cleaning clean hygiene | limpieza limpiar higiene
extraction pull | extraccion sacar
treatment therapy procedure | tratamiento terapia procedimiento
vaccine vaccination jab | vacuna vacunacion
test scan xray analysis results | prueba radiografia analisis resultados
fever temperature cough flu | fiebre tos resfriado gripe
car cars vehicle van | coche coches vehiculo furgoneta
drive driver driving drivers | conducir conductor conductora manejar
licence license | licencia carnet
tyre tire tyres tires wheel puncture | rueda neumatico neumaticos pinchazo pinchado pinchada reventon
battery batteries | bateria baterias
fuel petrol diesel gasoline | gasolina combustible gasoil diesel
key keys | llave llaves
engine motor | motor
tow towing | grua remolque remolcar
airport terminal | aeropuerto terminal
station train railway | estacion tren
flight plane | vuelo avion
hotel hostel apartment accommodation lodging | hostal apartamento alojamiento hotel
luggage baggage suitcase | equipaje maleta maletas
trip journey travel holiday vacation | viaje viajar vacaciones
shop store | tienda comercio
warranty guarantee | garantia
message sms text | mensaje mensajes sms
roaming abroad | extranjero roaming
atm cashpoint | cajero
fraud scam fraudulent | fraude estafa
interest | interes intereses
course courses class classes lesson lessons | curso cursos clase clases leccion lecciones
enrol enroll register registration signup | inscribir inscripcion matricula matricular apuntar apuntarme
teacher tutor instructor trainer | profesor profesora monitor entrenador
exam exams | examen examenes
plumber plumbing | fontanero fontaneria
electrician electricity electric | electricista electricidad
light lights lamp | luz luces lampara
leak leaking leaks drip | fuga gotea gotera goteo
boiler heating heater | caldera calefaccion
water | agua
pipe pipes | tuberia tuberias
stuck jammed clogged trapped | atascado atascada atrapado atrapada
technician | tecnico tecnica
massage | masaje masajes
wax waxing | depilacion depilar cera
makeup | maquillaje
eyebrows lashes eyelashes | cejas pestanas
event party wedding birthday celebration | evento fiesta boda cumpleanos celebracion
sell selling sale | vender venta
property properties flat | propiedad propiedades inmueble vivienda piso
landlord tenant owner | casero propietario inquilino
bus coach | autobus bus
taxi cab | taxi
route | ruta trayecto
document documents documentation paperwork | documento documentos documentacion papeles
passport identification identity | pasaporte dni identidad
age old young | edad joven
minimum least | minimo minima
`;

/** The lexicon's languages, in the order of each line's sides. */
const SIDES = ['en', 'es'] as const;

/**
 * Per language (`''` for languages without a stemmer): word root → meaning. A language's
 * words only, stemmed by its own stemmer: a word of the other language stemmed by this
 * one can meet an unrelated word ("calle" → `call`, so English "call" meant address).
 * Languages without a lexicon side look words up on both sides.
 */
const MEANINGS = new Map<string, Map<string, string>>();
for (const language of ['', ...ROOT_LANGUAGES]) MEANINGS.set(language, new Map());
for (const line of LINES.trim().split('\n')) {
  const sides = line.split('|').map((side) => side.trim().split(/\s+/));
  if (sides.length !== SIDES.length) throw new Error(`lexicon: "${line}" needs one "|"`);
  const id = sides[0]?.[0] ?? '';
  sides.forEach((words, i) => {
    const side = SIDES[i] ?? '';
    for (const language of MEANINGS.keys()) {
      if (language !== '' && language !== side) continue;
      const meaning = MEANINGS.get(language) as Map<string, string>;
      for (const w of words) {
        const key = rootOf(w, language);
        // A word in two lines keeps its first meaning.
        if (!meaning.has(key)) meaning.set(key, id);
      }
    }
  });
}

/** Per language: the lexicon's words (folded) with their roots, for typo correction. */
export function lexiconWords(language: string): { surface: string; root: string }[] {
  const out: { surface: string; root: string }[] = [];
  for (const line of LINES.trim().split('\n')) {
    line.split('|').forEach((side, i) => {
      if (language !== '' && ROOT_LANGUAGES.includes(language) && SIDES[i] !== language) return;
      for (const w of side.trim().split(/\s+/)) out.push({ surface: w, root: rootOf(w, language) });
    });
  }
  return out;
}

/** The lexicon meaning of a word root ({@link rootOf} in `language`), if it has one. */
export function meaningOf(root: string, language = ''): string | undefined {
  return (MEANINGS.get(language) ?? MEANINGS.get(''))?.get(root);
}

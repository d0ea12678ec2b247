import type { PushDevice } from '../../../../api/contract/push';
import {
  PUSH_DENIED,
  PUSH_DEVICES,
  PUSH_FAILED,
  PUSH_NO_DEVICES,
  PUSH_REMOVE,
  PUSH_THIS_DEVICE,
  PUSH_TURN_ON,
  PUSH_TURNING_ON,
  PUSH_UNSUPPORTED,
} from '../../../../api/contract/push-texts';
import { SERVER_ERROR } from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import { pushSupported, usePushDevicesQuery, useRemovePushDevice, useThisPushDevice, useTurnOnPush } from '../../api/push';
import { Spinner } from '../../components/Spinner';
import { formatDate } from '../../format';
import './PushDevices.css';

/**
 * Settings → Notifications, the push half: turn notifications on for this browser (permission,
 * then a subscription with the server's key) and the devices that get them, each removable.
 */
export function PushDevices() {
  const devices = usePushDevicesQuery();
  const turnOn = useTurnOnPush();
  const remove = useRemovePushDevice();
  const supported = pushSupported();
  const thisDevice = useThisPushDevice(supported).data ?? null;

  const subscribedHere = !!thisDevice && !!devices.data?.devices.some((d) => d.id === thisDevice);
  const denied = turnOn.data === 'denied';

  return (
    <div className="push-devices">
      <h3 className="push-devices__title">{PUSH_DEVICES}</h3>
      {devices.isPending ? (
        <Spinner label="Loading your devices" />
      ) : devices.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(devices.error, SERVER_ERROR)}
        </p>
      ) : devices.data.devices.length ? (
        <ul className="push-devices__list">
          {devices.data.devices.map((device) => (
            <DeviceRow
              key={device.id}
              device={device}
              here={device.id === thisDevice}
              disabled={remove.isPending}
              onRemove={() => remove.mutate({ id: device.id, thisDevice: device.id === thisDevice })}
            />
          ))}
        </ul>
      ) : (
        <p className="field-hint">{PUSH_NO_DEVICES}</p>
      )}
      {!supported ? (
        <p className="field-hint">{PUSH_UNSUPPORTED}</p>
      ) : subscribedHere ? null : (
        <button
          type="button"
          className="btn btn--primary btn--block push-devices__turn-on"
          disabled={turnOn.isPending}
          onClick={() => turnOn.mutate()}
        >
          {turnOn.isPending ? <Spinner size={18} label={PUSH_TURNING_ON} /> : null}
          {turnOn.isPending ? PUSH_TURNING_ON : PUSH_TURN_ON}
        </button>
      )}
      {denied ? (
        <p className="field-error" role="alert">
          {PUSH_DENIED}
        </p>
      ) : turnOn.isError || remove.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(turnOn.error ?? remove.error, PUSH_FAILED)}
        </p>
      ) : null}
    </div>
  );
}

function DeviceRow({ device, here, disabled, onRemove }: { device: PushDevice; here: boolean; disabled: boolean; onRemove: () => void }) {
  const since = formatDate(device.createdAt);
  return (
    <li className="push-devices__item">
      <div className="push-devices__info">
        <span className="push-devices__device">
          {device.device}
          {here ? <span className="badge push-devices__here">{PUSH_THIS_DEVICE}</span> : null}
        </span>
        <span className="push-devices__meta">Since {since}</span>
      </div>
      <button
        type="button"
        className="btn btn--sm btn--soft"
        disabled={disabled}
        aria-label={`${PUSH_REMOVE} ${device.device}, since ${since}`}
        onClick={onRemove}
      >
        {PUSH_REMOVE}
      </button>
    </li>
  );
}
